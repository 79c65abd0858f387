//! A row packed into bytes: the form the oks arrangements keep their keys
//! and rows in. A `Vec<Datum>` is a heap allocation of 32 bytes a datum
//! (and one more per text); a `PackedRow` is a tag byte per datum followed
//! by its bytes, kept inline in the 24-byte value while it fits
//! (`INLINE` bytes: two `bigint`s, four `integer`s), else in one boxed slice.
//!
//! Encoding, per datum: `Null`; `false`; `true`; `Int32` and 4 bytes;
//! `Int64` and 8 bytes; `Numeric` and its 24 bytes (`Numeric::to_bytes`);
//! `Text` and its length (4 bytes) and UTF-8 bytes; `Float32` and
//! `Float64` and the value's bits (4 or 8 bytes, a NaN's the canonical
//! NaN's, so that equal floats have equal bytes); `Int16` and 2 bytes;
//! `Date` and its days (4 bytes); `Timestamp` and its microseconds (8
//! bytes); `Interval` and its months, days and microseconds (4, 4 and 8
//! bytes); `Range` and the length of the rest (4 bytes), its flags (a
//! byte: empty, lower inclusive, lower infinite, upper inclusive, upper
//! infinite, as the real system's) and its finite bounds, each a datum
//! encoded as here; `UInt16`, `UInt32` and `UInt64` and 2, 4 or 8 bytes;
//! `TimestampTz` as `Timestamp`; `Jsonb` and the length of the rest (4
//! bytes) and its value, node by node (`jsonb_ref.rs`); `Array` and the
//! length of the rest (4 bytes), its dimensions and elements
//! (`array_ref.rs`); `Time` and its microseconds (8 bytes); `List` and
//! the length of the rest (4 bytes), its elements as a row's datums
//! (`list_ref.rs`); `Bytes` as `Text`, its bytes any. Integers are little-endian. The encoding of a row is
//! unique, so equal bytes are equal rows.
//!
//! The order (`Ord`) and hash (`Hash`) are the `Vec<Datum>`'s it encodes,
//! decoded datum by datum: arrangements sort, peeks and imports read, and
//! exchanges route a packed key exactly as they did the row.
//!
//! In an arrangement the rows lie back to back in one byte vector
//! (`container::PackedRows`), and a cursor reads each in place as a
//! `PackedRef`, which orders and unpacks as the `PackedRow` it was.

mod array_ref;
mod compare;
mod container;
mod datum_hash;
mod jsonb_ref;
mod list_ref;
mod offsets;
mod range_ref;
mod updates;

pub use container::PackedRows;
pub use offsets::Offsets;
pub use updates::{PackedUpdates, SealedSizes, Update};

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::repr::interval::Interval;
use crate::repr::time::{Date, DateTime, Time};
use crate::repr::{Datum, Numeric, Row, F32, F64};
use array_ref::ArrayRef;
use compare::compare;
use jsonb_ref::JsonbRef;
use list_ref::ListRef;
use range_ref::RangeRef;

/// Bytes kept inline: a `PackedRow` is as large as a `Vec`.
const INLINE: usize = 22;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT32: u8 = 3;
const INT64: u8 = 4;
const NUMERIC: u8 = 5;
const TEXT: u8 = 6;
const FLOAT32: u8 = 7;
const FLOAT64: u8 = 8;
const INT16: u8 = 9;
const DATE: u8 = 10;
const TIMESTAMP: u8 = 11;
const INTERVAL: u8 = 12;
const RANGE: u8 = 13;
const UINT16: u8 = 14;
const UINT32: u8 = 15;
const UINT64: u8 = 16;
const TIMESTAMPTZ: u8 = 17;
const JSONB: u8 = 18;
const ARRAY: u8 = 20;
const TIME: u8 = 21;
const LIST: u8 = 22;
const BYTES: u8 = 23;

/// A row as bytes (see the module).
#[derive(Clone)]
pub struct PackedRow(Bytes);

#[derive(Clone)]
enum Bytes {
    Inline { len: u8, data: [u8; INLINE] },
    Heap(Box<[u8]>),
}

impl PackedRow {
    /// Packs `row`.
    pub fn pack(row: &[Datum]) -> PackedRow {
        PackedRow::pack_datums(row.iter())
    }

    /// Packs the row of `row`'s `columns`, in their order (an index key),
    /// without building that row first.
    pub fn pack_columns(row: &[Datum], columns: &[usize]) -> PackedRow {
        PackedRow::pack_datums(columns.iter().map(|c| &row[*c]))
    }

    fn pack_datums<'a>(datums: impl Iterator<Item = &'a Datum> + Clone) -> PackedRow {
        let len: usize = datums.clone().map(encoded_len).sum();
        PackedRow::filled(len, |out| write(datums, out))
    }

    /// A row of `len` bytes, inline if they fit, which `fill` writes.
    fn filled(len: usize, fill: impl FnOnce(&mut [u8])) -> PackedRow {
        if len <= INLINE {
            let mut data = [0u8; INLINE];
            fill(&mut data[..len]);
            PackedRow(Bytes::Inline {
                len: len as u8,
                data,
            })
        } else {
            let mut data = vec![0u8; len].into_boxed_slice();
            fill(&mut data);
            PackedRow(Bytes::Heap(data))
        }
    }

    /// The row again, in an allocation of exactly its length (collecting
    /// would round a short row up to room for four datums).
    pub fn unpack(&self) -> Row {
        self.as_ref().unpack()
    }

    /// The row read in place.
    pub fn as_ref(&self) -> PackedRef<'_> {
        PackedRef(self.bytes())
    }

    fn bytes(&self) -> &[u8] {
        match &self.0 {
            Bytes::Inline { len, data } => &data[..usize::from(*len)],
            Bytes::Heap(data) => data,
        }
    }

    /// From bytes `pack` wrote (a deserialized row).
    fn from_bytes(bytes: &[u8]) -> PackedRow {
        PackedRow::filled(bytes.len(), |out| out.copy_from_slice(bytes))
    }

    fn datums(&self) -> Datums<'_> {
        Datums(self.bytes())
    }
}

/// A packed row read in place, as an arrangement's container holds it:
/// bytes `PackedRow::pack` wrote.
#[derive(Clone, Copy)]
pub struct PackedRef<'a>(&'a [u8]);

impl<'a> PackedRef<'a> {
    /// The row, as `PackedRow::unpack` gives it.
    pub fn unpack(self) -> Row {
        let mut row = Vec::with_capacity(Datums(self.0).count());
        row.extend(Datums(self.0).map(DatumRef::to_datum));
        row
    }

    /// An owned copy.
    pub fn to_owned(self) -> PackedRow {
        PackedRow::from_bytes(self.0)
    }

    /// The packed row of this row's `columns`, in their order (an index
    /// key), copied byte for byte: a datum's encoding does not depend on
    /// where it stands.
    pub fn project(self, columns: &[usize]) -> PackedRow {
        let piece = |column: usize| -> &'a [u8] {
            let mut datums = Datums(self.0);
            for _ in 0..column {
                datums.next().expect("a column of the row");
            }
            let start = self.0.len() - datums.0.len();
            datums.next().expect("a column of the row");
            &self.0[start..self.0.len() - datums.0.len()]
        };
        let len: usize = columns.iter().map(|c| piece(*c).len()).sum();
        PackedRow::filled(len, |out| {
            let mut at = 0;
            for column in columns {
                let bytes = piece(*column);
                out[at..at + bytes.len()].copy_from_slice(bytes);
                at += bytes.len();
            }
        })
    }

    /// Whether this is the row of no columns.
    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The bytes the row takes packed (what a container reserves for it).
    pub fn byte_len(self) -> usize {
        self.0.len()
    }

    fn bytes(self) -> &'a [u8] {
        self.0
    }
}

impl PartialEq for PackedRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for PackedRef<'_> {}

impl Ord for PackedRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(self.0, other.0)
    }
}

impl PartialOrd for PackedRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What the arrange operator's builder compares a batch's last key with.
impl<'a> PartialEq<&'a PackedRow> for PackedRef<'a> {
    fn eq(&self, other: &&'a PackedRow) -> bool {
        self.0 == other.bytes()
    }
}

impl fmt::Debug for PackedRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.unpack())
    }
}

fn encoded_len(datum: &Datum) -> usize {
    1 + match datum {
        Datum::Null | Datum::Bool(_) => 0,
        Datum::Int32(_) => 4,
        Datum::Int64(_) => 8,
        Datum::Numeric(_) => Numeric::BYTES,
        Datum::Text(s) => 4 + s.len(),
        Datum::Bytes(b) => 4 + b.len(),
        Datum::Float32(_) => 4,
        Datum::Float64(_) => 8,
        Datum::Int16(_) => 2,
        Datum::Date(_) => 4,
        Datum::Timestamp(_) | Datum::TimestampTz(_) | Datum::Time(_) => 8,
        Datum::Interval(_) => 16,
        Datum::Range(r) => 4 + 1 + r.finite_bounds().map(encoded_len).sum::<usize>(),
        Datum::UInt16(_) | Datum::UInt32(_) | Datum::UInt64(_) => {
            unsigned(datum).expect("an unsigned integer").1
        }
        Datum::Jsonb(j) => 4 + jsonb_ref::encoded_len(j),
        Datum::Array(a) => 4 + array_ref::encoded_len_of(a),
        Datum::List(l) => 4 + l.iter().map(encoded_len).sum::<usize>(),
    }
}

/// An unsigned integer's tag, width in bytes and value.
fn unsigned(datum: &Datum) -> Option<(u8, usize, u64)> {
    match datum {
        Datum::UInt16(u) => Some((UINT16, 2, u64::from(*u))),
        Datum::UInt32(u) => Some((UINT32, 4, u64::from(*u))),
        Datum::UInt64(u) => Some((UINT64, 8, *u)),
        _ => None,
    }
}

/// A `bytea`'s bytes (none of another datum).
fn bytes_of(datum: &Datum) -> &[u8] {
    match datum {
        Datum::Bytes(b) => b,
        _ => &[],
    }
}

/// Writes `row` into `out`, exactly its encoded length.
fn write<'a>(row: impl Iterator<Item = &'a Datum>, out: &mut [u8]) {
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        out[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    for datum in row {
        match datum {
            Datum::Null => put(&[NULL]),
            Datum::Bool(false) => put(&[FALSE]),
            Datum::Bool(true) => put(&[TRUE]),
            Datum::Int32(i) => {
                put(&[INT32]);
                put(&i.to_le_bytes());
            }
            Datum::Int64(i) => {
                put(&[INT64]);
                put(&i.to_le_bytes());
            }
            Datum::Numeric(n) => {
                put(&[NUMERIC]);
                put(&n.to_bytes());
            }
            Datum::Text(_) | Datum::Bytes(_) => {
                let (tag, b) = match datum {
                    Datum::Text(s) => (TEXT, s.as_bytes()),
                    _ => (BYTES, bytes_of(datum)),
                };
                put(&[tag]);
                put(&u32::try_from(b.len()).expect("under 4 GiB").to_le_bytes());
                put(b);
            }
            Datum::Float32(f) => {
                put(&[FLOAT32]);
                put(&f.get().to_bits().to_le_bytes());
            }
            Datum::Float64(f) => {
                put(&[FLOAT64]);
                put(&f.get().to_bits().to_le_bytes());
            }
            Datum::Int16(i) => {
                put(&[INT16]);
                put(&i.to_le_bytes());
            }
            Datum::Date(d) => {
                put(&[DATE]);
                put(&d.days().to_le_bytes());
            }
            Datum::Timestamp(t) | Datum::TimestampTz(t) => {
                let tz = matches!(datum, Datum::TimestampTz(_));
                put(&[if tz { TIMESTAMPTZ } else { TIMESTAMP }]);
                put(&t.micros().to_le_bytes());
            }
            Datum::Time(t) => {
                put(&[TIME]);
                put(&t.micros().to_le_bytes());
            }
            Datum::Interval(i) => {
                put(&[INTERVAL]);
                put(&i.months.to_le_bytes());
                put(&i.days.to_le_bytes());
                put(&i.micros.to_le_bytes());
            }
            Datum::Range(r) => {
                let len = encoded_len(datum) - 1 - 4;
                put(&[RANGE]);
                put(&u32::try_from(len).expect("a short range").to_le_bytes());
                put(&[r.flag_bits()]);
                let bounds = r.finite_bounds();
                let mut inner = vec![0u8; len - 1];
                write(bounds, &mut inner);
                put(&inner);
            }
            Datum::UInt16(_) | Datum::UInt32(_) | Datum::UInt64(_) => {
                let (tag, width, u) = unsigned(datum).expect("an unsigned integer");
                put(&[tag]);
                put(&u.to_le_bytes()[..width]);
            }
            Datum::Jsonb(j) => {
                let mut value = Vec::with_capacity(jsonb_ref::encoded_len(j));
                jsonb_ref::write(j, &mut value);
                put(&[JSONB]);
                put(&u32::try_from(value.len())
                    .expect("a short jsonb")
                    .to_le_bytes());
                put(&value);
            }
            Datum::Array(a) => {
                let mut value = vec![0u8; array_ref::encoded_len_of(a)];
                array_ref::write_array(a, &mut value);
                put(&[ARRAY]);
                put(&u32::try_from(value.len())
                    .expect("a short array")
                    .to_le_bytes());
                put(&value);
            }
            Datum::List(l) => {
                let mut value = vec![0u8; encoded_len(datum) - 1 - 4];
                write(l.iter(), &mut value);
                put(&[LIST]);
                put(&u32::try_from(value.len())
                    .expect("a short list")
                    .to_le_bytes());
                put(&value);
            }
        }
    }
}

/// A datum read in place. Its variants are `Datum`'s, in `Datum`'s order,
/// so the derived order is `Datum`'s (text compares as bytes, as `String`
/// does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum DatumRef<'a> {
    Null,
    Bool(bool),
    Int32(i32),
    Int64(i64),
    Numeric(Numeric),
    Text(&'a [u8]),
    Float32(F32),
    Float64(F64),
    Int16(i16),
    Date(Date),
    Timestamp(DateTime),
    Interval(Interval),
    Range(RangeRef<'a>),
    UInt16(u16),
    UInt32(u32),
    UInt64(u64),
    TimestampTz(DateTime),
    Jsonb(JsonbRef<'a>),
    Array(ArrayRef<'a>),
    Time(Time),
    List(ListRef<'a>),
    Bytes(&'a [u8]),
}

impl DatumRef<'_> {
    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).expect("packed text is UTF-8")
    }

    fn to_datum(self) -> Datum {
        match self {
            DatumRef::Null => Datum::Null,
            DatumRef::Bool(b) => Datum::Bool(b),
            DatumRef::Int32(i) => Datum::Int32(i),
            DatumRef::Int64(i) => Datum::Int64(i),
            DatumRef::Numeric(n) => Datum::Numeric(n),
            DatumRef::Text(s) => Datum::Text(DatumRef::text(s).to_owned()),
            DatumRef::Float32(f) => Datum::Float32(f),
            DatumRef::Float64(f) => Datum::Float64(f),
            DatumRef::Int16(i) => Datum::Int16(i),
            DatumRef::Date(d) => Datum::Date(d),
            DatumRef::Timestamp(t) => Datum::Timestamp(t),
            DatumRef::Interval(i) => Datum::Interval(i),
            DatumRef::Range(r) => Datum::Range(Box::new(r.unpack())),
            DatumRef::UInt16(u) => Datum::UInt16(u),
            DatumRef::UInt32(u) => Datum::UInt32(u),
            DatumRef::UInt64(u) => Datum::UInt64(u),
            DatumRef::TimestampTz(t) => Datum::TimestampTz(t),
            DatumRef::Jsonb(j) => Datum::Jsonb(Box::new(j.unpack())),
            DatumRef::Array(a) => Datum::Array(Box::new(a.unpack())),
            DatumRef::Time(t) => Datum::Time(t),
            DatumRef::List(l) => Datum::List(l.unpack()),
            DatumRef::Bytes(b) => Datum::Bytes(b.to_vec()),
        }
    }
}

/// The datums of a packed row, in order.
struct Datums<'a>(&'a [u8]);

impl<'a> Datums<'a> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }

    fn timestamp(&mut self) -> DateTime {
        DateTime::from_micros(i64::from_le_bytes(self.take())).expect("a packed timestamp")
    }

    /// The bytes of a value packed after its length (a text, a range, a
    /// jsonb, an array).
    fn prefixed(&mut self) -> &'a [u8] {
        let len = u32::from_le_bytes(self.take()) as usize;
        let (value, rest) = self.0.split_at(len);
        self.0 = rest;
        value
    }
}

impl<'a> Iterator for Datums<'a> {
    type Item = DatumRef<'a>;

    fn next(&mut self) -> Option<DatumRef<'a>> {
        let (&tag, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(match tag {
            NULL => DatumRef::Null,
            FALSE => DatumRef::Bool(false),
            TRUE => DatumRef::Bool(true),
            INT32 => DatumRef::Int32(i32::from_le_bytes(self.take())),
            INT64 => DatumRef::Int64(i64::from_le_bytes(self.take())),
            NUMERIC => DatumRef::Numeric(Numeric::from_bytes(self.take())),
            TEXT => DatumRef::Text(self.prefixed()),
            FLOAT32 => DatumRef::Float32(F32::new(f32::from_bits(u32::from_le_bytes(self.take())))),
            FLOAT64 => DatumRef::Float64(F64::new(f64::from_bits(u64::from_le_bytes(self.take())))),
            INT16 => DatumRef::Int16(i16::from_le_bytes(self.take())),
            DATE => DatumRef::Date(
                Date::from_days(i32::from_le_bytes(self.take()).into()).expect("a packed date"),
            ),
            TIMESTAMP => DatumRef::Timestamp(self.timestamp()),
            TIMESTAMPTZ => DatumRef::TimestampTz(self.timestamp()),
            INTERVAL => DatumRef::Interval(Interval::new(
                i32::from_le_bytes(self.take()),
                i32::from_le_bytes(self.take()),
                i64::from_le_bytes(self.take()),
            )),
            RANGE => DatumRef::Range(RangeRef(self.prefixed())),
            UINT16 => DatumRef::UInt16(u16::from_le_bytes(self.take())),
            UINT32 => DatumRef::UInt32(u32::from_le_bytes(self.take())),
            UINT64 => DatumRef::UInt64(u64::from_le_bytes(self.take())),
            JSONB => DatumRef::Jsonb(JsonbRef(self.prefixed())),
            ARRAY => DatumRef::Array(ArrayRef(self.prefixed())),
            TIME => DatumRef::Time(
                Time::from_micros(i64::from_le_bytes(self.take())).expect("a packed time"),
            ),
            LIST => DatumRef::List(ListRef(self.prefixed())),
            BYTES => DatumRef::Bytes(self.prefixed()),
            _ => unreachable!("a packed row has no tag {tag}"),
        })
    }
}

/// Equal bytes are equal rows: the encoding is unique.
impl PartialEq for PackedRow {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for PackedRow {}

/// The order of the rows (`Vec<Datum>`'s, lexicographic by datum).
impl Ord for PackedRow {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(self.bytes(), other.bytes())
    }
}

impl PartialOrd for PackedRow {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The hash of the row, as `[Datum]` hashes (its length, then each datum),
/// so an exchange by a packed key routes it where the row went.
impl Hash for PackedRow {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.datums().count());
        for datum in self.datums() {
            datum.hash(state);
        }
    }
}

impl fmt::Debug for PackedRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.unpack())
    }
}

impl Serialize for PackedRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.bytes().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PackedRow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<u8>::deserialize(deserializer).map(|bytes| PackedRow::from_bytes(&bytes))
    }
}

#[cfg(test)]
mod tests;
