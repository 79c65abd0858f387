//! The hash of a datum read in place: `Datum`'s derived `Hash`, so that a
//! packed key is routed where its row would be. Apart from `mod.rs` so
//! that the encoding's file stays short.

use std::hash::{Hash, Hasher};

use super::DatumRef;
use crate::repr::array::Array;
use crate::repr::interval::Interval;
use crate::repr::jsonb::Jsonb;
use crate::repr::range::Range;
use crate::repr::time::{Date, DateTime, Time};
use crate::repr::{Datum, Numeric, F32, F64};

/// Hashes as `Datum`'s derived `Hash` does (variant, then field).
impl Hash for DatumRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        #[derive(Hash)]
        enum AsDatum<'a> {
            Null,
            Bool(bool),
            Int32(i32),
            Int64(i64),
            Numeric(Numeric),
            Text(&'a str),
            Float32(F32),
            Float64(F64),
            Int16(i16),
            Date(Date),
            Timestamp(DateTime),
            Interval(Interval),
            Range(Range),
            UInt16(u16),
            UInt32(u32),
            UInt64(u64),
            TimestampTz(DateTime),
            Jsonb(Jsonb),
            Array(Array),
            Time(Time),
            List(Vec<Datum>),
            Bytes(&'a [u8]),
        }
        let datum = match *self {
            DatumRef::Null => AsDatum::Null,
            DatumRef::Bool(b) => AsDatum::Bool(b),
            DatumRef::Int32(i) => AsDatum::Int32(i),
            DatumRef::Int64(i) => AsDatum::Int64(i),
            DatumRef::Numeric(n) => AsDatum::Numeric(n),
            DatumRef::Text(s) => AsDatum::Text(DatumRef::text(s)),
            DatumRef::Float32(f) => AsDatum::Float32(f),
            DatumRef::Float64(f) => AsDatum::Float64(f),
            DatumRef::Int16(i) => AsDatum::Int16(i),
            DatumRef::Date(d) => AsDatum::Date(d),
            DatumRef::Timestamp(t) => AsDatum::Timestamp(t),
            DatumRef::Interval(i) => AsDatum::Interval(i),
            DatumRef::Range(r) => AsDatum::Range(r.unpack()),
            DatumRef::UInt16(u) => AsDatum::UInt16(u),
            DatumRef::UInt32(u) => AsDatum::UInt32(u),
            DatumRef::UInt64(u) => AsDatum::UInt64(u),
            DatumRef::TimestampTz(t) => AsDatum::TimestampTz(t),
            DatumRef::Jsonb(j) => AsDatum::Jsonb(j.unpack()),
            DatumRef::Array(a) => AsDatum::Array(a.unpack()),
            DatumRef::Time(t) => AsDatum::Time(t),
            DatumRef::List(l) => AsDatum::List(l.unpack()),
            DatumRef::Bytes(b) => AsDatum::Bytes(b),
        };
        datum.hash(state)
    }
}
