//! The order the real system hands a read's rows to its client in, where
//! no `ORDER BY` decides it: the order of its row encoding's bytes,
//! shorter rows first (its `repr/src/row.rs`, `RowRef: Ord`, read for the
//! facts). Its adapter sorts every result set that way before it applies
//! the `ORDER BY` as a stable sort (`RowCollection::new` and
//! `compare_columns`), so a read without `ORDER BY`, and rows tied under
//! one, come in this order, not in the values' order: `0, 3, -2` (a
//! negative integer has a later tag), `'b', 'aa'` (a shorter string is a
//! shorter row).
//!
//! A client of the real system sees this order, and Materialize's
//! sqllogictest files write it down without a sort mode, so the engine
//! presents its rows the same way (`plan::Finishing::apply`). Only the
//! bytes' order matters here: the encoding is rebuilt as far as it decides
//! that order, for the types the engine has.

use std::cmp::Ordering;

use dec::Decimal;

use super::decimal::cx_datum;
use super::jsonb::Jsonb;
use super::{Datum, Numeric};

/// The real system's tags (its `enum Tag`, whose place in the enum is the
/// byte) for the datums the engine has.
mod tag {
    pub const NULL: u8 = 0;
    pub const FALSE: u8 = 1;
    pub const TRUE: u8 = 2;
    pub const FLOAT32: u8 = 8;
    pub const FLOAT64: u8 = 9;
    pub const DATE: u8 = 10;
    /// A time as its seconds since midnight and nanoseconds (4 bytes each).
    pub const TIME: u8 = 11;
    /// A timestamp as its date (year, day of the year) and time (seconds
    /// since midnight, nanoseconds), when `CHEAP_TIMESTAMP` cannot hold it.
    pub const TIMESTAMP: u8 = 12;
    /// `TIMESTAMP`'s for a `timestamp with time zone`.
    pub const TIMESTAMPTZ: u8 = 13;
    /// An interval as its months, days and microseconds.
    pub const INTERVAL: u8 = 14;
    /// `BytesTiny`, then `BytesShort`, `BytesLong` and `BytesHuge`, as
    /// the strings' tags.
    pub const BYTES_TINY: u8 = 15;
    /// `StringTiny`, then `StringShort`, `StringLong` and `StringHuge`:
    /// a length of 1, 2, 4 or 8 bytes.
    pub const STRING_TINY: u8 = 19;
    /// An array: the number of its dimensions (a byte), each one's lower
    /// bound and length (8 bytes each), its elements' bytes' length (8
    /// bytes), then its elements, each a datum.
    pub const ARRAY: u8 = 24;
    /// `ListTiny`, then `ListShort`, `ListLong` and `ListHuge`: a list's
    /// bytes' length in 1, 2, 4 or 8 bytes, then its datums.
    pub const LIST_TINY: u8 = 25;
    /// A map: its bytes' length in 8 bytes, then each key (a string) and
    /// value.
    pub const DICT: u8 = 29;
    /// A JSON `null`.
    pub const JSON_NULL: u8 = 30;
    pub const NUMERIC: u8 = 32;
    /// A range: its flags byte, then its finite bounds, each a datum.
    pub const RANGE: u8 = 36;
    /// A timestamp as its nanoseconds since 1970-01-01, where they fit an
    /// `i64` (from 1677 to 2262).
    pub const CHEAP_TIMESTAMP: u8 = 39;
    /// `CHEAP_TIMESTAMP`'s for a `timestamp with time zone`.
    pub const CHEAP_TIMESTAMPTZ: u8 = 40;
    /// `NonNegativeInt16_0`: the first of the integers' tags, which name
    /// the width, the sign and how many bytes follow.
    pub const NON_NEGATIVE_INT16_0: u8 = 41;
    pub const NON_NEGATIVE_INT32_0: u8 = 44;
    pub const NON_NEGATIVE_INT64_0: u8 = 49;
    pub const NEGATIVE_INT16_0: u8 = 58;
    pub const NEGATIVE_INT32_0: u8 = 61;
    pub const NEGATIVE_INT64_0: u8 = 66;
    /// `UInt16_0`, after `NegativeInt64_64` and `UInt8_0`, `UInt8_8`: the
    /// unsigned integers' tags, which name the width and how many bytes
    /// follow.
    pub const UINT16_0: u8 = 77;
    pub const UINT32_0: u8 = 80;
    pub const UINT64_0: u8 = 85;
}

/// `row` as the real system's row encoding has it.
pub fn encode(row: &[Datum]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for datum in row {
        push(&mut bytes, datum);
    }
    bytes
}

/// The real system's order of two encoded rows: the shorter first, then
/// by their bytes.
pub fn compare(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn push(bytes: &mut Vec<u8>, datum: &Datum) {
    match datum {
        Datum::Null => bytes.push(tag::NULL),
        Datum::Bool(false) => bytes.push(tag::FALSE),
        Datum::Bool(true) => bytes.push(tag::TRUE),
        Datum::Int16(i) => {
            let tags = (tag::NON_NEGATIVE_INT16_0, tag::NEGATIVE_INT16_0);
            push_integer(bytes, i64::from(*i), tags);
        }
        Datum::Int32(i) => {
            let tags = (tag::NON_NEGATIVE_INT32_0, tag::NEGATIVE_INT32_0);
            push_integer(bytes, i64::from(*i), tags);
        }
        Datum::Int64(i) => {
            let tags = (tag::NON_NEGATIVE_INT64_0, tag::NEGATIVE_INT64_0);
            push_integer(bytes, *i, tags);
        }
        Datum::UInt16(u) => push_unsigned(bytes, u64::from(*u), tag::UINT16_0),
        Datum::UInt32(u) => push_unsigned(bytes, u64::from(*u), tag::UINT32_0),
        Datum::UInt64(u) => push_unsigned(bytes, *u, tag::UINT64_0),
        Datum::Float32(f) => {
            bytes.push(tag::FLOAT32);
            bytes.extend_from_slice(&f.get().to_bits().to_le_bytes());
        }
        Datum::Float64(f) => {
            bytes.push(tag::FLOAT64);
            bytes.extend_from_slice(&f.get().to_bits().to_le_bytes());
        }
        Datum::Text(s) => push_string(bytes, s.as_bytes()),
        Datum::Bytes(b) => push_lengthed(bytes, b, tag::BYTES_TINY),
        Datum::Date(d) => {
            bytes.push(tag::DATE);
            bytes.extend_from_slice(&d.days().to_le_bytes());
        }
        Datum::Timestamp(t) | Datum::TimestampTz(t) => match t.unix_nanos() {
            Some(nanos) => {
                let tz = matches!(datum, Datum::TimestampTz(_));
                bytes.push(if tz {
                    tag::CHEAP_TIMESTAMPTZ
                } else {
                    tag::CHEAP_TIMESTAMP
                });
                bytes.extend_from_slice(&nanos.to_le_bytes());
            }
            None => {
                let (year, ordinal, seconds, nanos) = t.parts();
                let tz = matches!(datum, Datum::TimestampTz(_));
                bytes.push(if tz { tag::TIMESTAMPTZ } else { tag::TIMESTAMP });
                let parts = [
                    year.to_le_bytes(),
                    ordinal.to_le_bytes(),
                    seconds.to_le_bytes(),
                    nanos.to_le_bytes(),
                ];
                for part in parts {
                    bytes.extend_from_slice(&part);
                }
            }
        },
        Datum::Time(t) => {
            let (seconds, micros) = (t.micros() / 1_000_000, t.micros() % 1_000_000);
            let part = |v: i64| u32::try_from(v).expect("a part of a day");
            bytes.push(tag::TIME);
            bytes.extend_from_slice(&part(seconds).to_le_bytes());
            bytes.extend_from_slice(&part(micros * 1000).to_le_bytes());
        }
        Datum::Interval(i) => {
            bytes.push(tag::INTERVAL);
            bytes.extend_from_slice(&i.months.to_le_bytes());
            bytes.extend_from_slice(&i.days.to_le_bytes());
            bytes.extend_from_slice(&i.micros.to_le_bytes());
        }
        Datum::Range(r) => {
            bytes.push(tag::RANGE);
            bytes.push(r.flag_bits());
            for value in r.finite_bounds() {
                push(bytes, value);
            }
        }
        Datum::Jsonb(j) => push_jsonb(bytes, j),
        Datum::Numeric(n) => push_numeric(bytes, n),
        Datum::Array(a) => {
            bytes.push(tag::ARRAY);
            bytes.push(u8::try_from(a.dims.len()).expect("at most six dimensions"));
            for d in &a.dims {
                bytes.extend_from_slice(&d.lower.to_le_bytes());
                bytes.extend_from_slice(&(d.length as u64).to_le_bytes());
            }
            let mut inner = Vec::new();
            a.elements.iter().for_each(|e| push(&mut inner, e));
            bytes.extend_from_slice(&(inner.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&inner);
        }
        // A list is the real system's list datum, as a jsonb array's.
        Datum::List(l) => {
            let mut inner = Vec::new();
            l.iter().for_each(|e| push(&mut inner, e));
            push_lengthed(bytes, &inner, tag::LIST_TINY);
        }
    }
}

/// A `jsonb` as the real system's datums of it: `JsonNull`, `False`,
/// `True`, a numeric, a string, a list of them, a map.
fn push_jsonb(bytes: &mut Vec<u8>, j: &Jsonb) {
    match j {
        Jsonb::Null => bytes.push(tag::JSON_NULL),
        Jsonb::Bool(b) => push(bytes, &Datum::Bool(*b)),
        Jsonb::Number(n) => push_numeric(bytes, n),
        Jsonb::String(s) => push_string(bytes, s.as_bytes()),
        Jsonb::Array(elements) => {
            let mut inner = Vec::new();
            elements.iter().for_each(|e| push_jsonb(&mut inner, e));
            push_lengthed(bytes, &inner, tag::LIST_TINY);
        }
        Jsonb::Object(entries) => {
            let mut inner = Vec::new();
            for (k, v) in entries {
                push_string(&mut inner, k.as_bytes());
                push_jsonb(&mut inner, v);
            }
            bytes.push(tag::DICT);
            bytes.extend_from_slice(&(inner.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&inner);
        }
    }
}

/// A numeric: reduced (every trailing zero of the coefficient dropped
/// into the exponent), then digits, exponent, sign bits and the
/// coefficient's units of three digits, least significant first.
fn push_numeric(bytes: &mut Vec<u8>, n: &Numeric) {
    let mut d = n.to_dec();
    cx_datum().reduce(&mut d);
    let (digits, exponent, bits, lsu) = d.to_raw_parts();
    bytes.push(tag::NUMERIC);
    bytes.push(u8::try_from(digits).expect("at most 39 digits"));
    let exponent = i8::try_from(exponent).expect("an exponent within 39");
    bytes.extend_from_slice(&exponent.to_le_bytes());
    bytes.push(bits);
    let units = Decimal::<13>::digits_to_lsu_elements_len(digits);
    for unit in &lsu[..units] {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
}

/// A list's bytes after a tag for the width of their length (the tag
/// `tiny` and the three after it) and the length.
fn push_lengthed(bytes: &mut Vec<u8>, inner: &[u8], tiny: u8) {
    let len = inner.len().to_le_bytes();
    let (tag, width) = match inner.len() {
        0..0x100 => (tiny, 1),
        0x100..0x1_0000 => (tiny + 1, 2),
        0x1_0000..0x1_0000_0000 => (tiny + 2, 4),
        _ => (tiny + 3, 8),
    };
    bytes.push(tag);
    bytes.extend_from_slice(&len[..width]);
    bytes.extend_from_slice(inner);
}

/// An integer in the fewest bytes that hold it with its sign apart: the
/// tag says the sign and the count (`-1` and `0` are a tag alone).
fn push_integer(bytes: &mut Vec<u8>, i: i64, (non_negative, negative): (u8, u8)) {
    let sign_bits = match i.is_negative() {
        true => i.leading_ones(),
        false => i.leading_zeros(),
    };
    let count = (64 - sign_bits).div_ceil(8) as u8;
    let first = if i.is_negative() {
        negative
    } else {
        non_negative
    };
    bytes.push(first + count);
    bytes.extend_from_slice(&i.to_le_bytes()[..usize::from(count)]);
}

/// An unsigned integer in the fewest bytes that hold it, the tag saying
/// how many (`0` is a tag alone).
fn push_unsigned(bytes: &mut Vec<u8>, u: u64, zero: u8) {
    let count = (64 - u.leading_zeros()).div_ceil(8) as u8;
    bytes.push(zero + count);
    bytes.extend_from_slice(&u.to_le_bytes()[..usize::from(count)]);
}

/// A string: a tag for the width of its length, the length, the bytes.
fn push_string(bytes: &mut Vec<u8>, s: &[u8]) {
    push_lengthed(bytes, s, tag::STRING_TINY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::{time, F32, F64};

    fn order(mut rows: Vec<Vec<Datum>>) -> Vec<Vec<Datum>> {
        rows.sort_by_cached_key(|r| {
            let e = encode(r);
            (e.len(), e)
        });
        rows
    }

    fn ints(values: &[i32]) -> Vec<Vec<Datum>> {
        values.iter().map(|i| vec![Datum::Int32(*i)]).collect()
    }

    /// The bytes of the real system's encoding, worked out by hand from
    /// its `push_datum`, for each kind of datum and each integer width.
    #[test]
    fn encodings_are_the_real_systems_bytes() {
        assert_eq!(encode(&[Datum::Int32(0)]), [44]);
        assert_eq!(encode(&[Datum::Int32(-1)]), [61]);
        assert_eq!(encode(&[Datum::Int32(255)]), [45, 255]);
        assert_eq!(encode(&[Datum::Int32(-256)]), [62, 0]);
        assert_eq!(encode(&[Datum::Int32(-257)]), [63, 0xff, 0xfe]);
        assert_eq!(encode(&[Datum::Int32(i32::MAX)]), [48, 255, 255, 255, 127]);
        assert_eq!(encode(&[Datum::Int16(300)]), [43, 0x2c, 1]);
        assert_eq!(encode(&[Datum::UInt16(0)]), [77]);
        assert_eq!(encode(&[Datum::UInt32(300)]), [82, 0x2c, 1]);
        assert_eq!(
            encode(&[Datum::UInt64(u64::MAX)]),
            [93, 255, 255, 255, 255, 255, 255, 255, 255]
        );
        assert_eq!(encode(&[Datum::Int64(1 << 40)]), [55, 0, 0, 0, 0, 0, 1]);
        assert_eq!(encode(&[Datum::Int64(i64::MIN)])[0], 74);
        assert_eq!(encode(&[Datum::Null, Datum::Bool(true)]), [0, 2]);
        assert_eq!(encode(&[Datum::Text("ab".into())]), [19, 2, b'a', b'b']);
        assert_eq!(encode(&[Datum::Bytes(vec![7])]), [15, 1, 7]);
        let long = "x".repeat(300);
        assert_eq!(encode(&[Datum::Text(long)])[..3], [20, 0x2c, 1]);
        let f = encode(&[Datum::Float64(F64::new(1.0))]);
        assert_eq!(f, [9, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
        assert_eq!(
            encode(&[Datum::Float32(F32::new(-0.0))]),
            [8, 0, 0, 0, 0x80]
        );
        // 1200 reduces to 12E2: 2 digits, exponent 2, positive, one unit.
        let n = |s: &str| Datum::Numeric(Numeric::parse(s).unwrap());
        assert_eq!(encode(&[n("1200")]), [32, 2, 2, 0, 12, 0]);
        // -1.5: 15E-1, negative (0x80), one unit.
        assert_eq!(encode(&[n("-1.5")]), [32, 2, 0xff, 0x80, 15, 0]);
        // 1234: two units, 234 then 1.
        assert_eq!(encode(&[n("1234")]), [32, 4, 0, 0, 234, 0, 1, 0]);
        assert_eq!(encode(&[n("0")]), [32, 1, 0, 0, 0, 0]);
        assert_eq!(
            encode(&[Datum::Numeric(Numeric::NAN)])[..4],
            [32, 1, 0, 0x20]
        );
        // A date's days since 2000-01-01; a timestamp within 1677..2262
        // as its nanoseconds since 1970, else as its parts.
        let date = time::parse_date("1999-12-31").unwrap();
        assert_eq!(encode(&[Datum::Date(date)]), [10, 0xff, 0xff, 0xff, 0xff]);
        let ts = time::parse_timestamp("1970-01-01 00:00:01").unwrap();
        let second = 1_000_000_000i64.to_le_bytes();
        assert_eq!(encode(&[Datum::Timestamp(ts)])[1..], second);
        assert_eq!(encode(&[Datum::Timestamp(ts)])[0], 39);
        let bc = time::parse_timestamp("0001-01-02 00:00:01.5 BC").unwrap();
        let mut parts = vec![12];
        for p in [0i32.to_le_bytes(), 2u32.to_le_bytes(), 1u32.to_le_bytes()] {
            parts.extend_from_slice(&p);
        }
        parts.extend_from_slice(&500_000_000u32.to_le_bytes());
        assert_eq!(encode(&[Datum::Timestamp(bc)]), parts);
        // A timestamp with time zone as a timestamp, under tags of its own.
        assert_eq!(encode(&[Datum::TimestampTz(ts)])[0], 40);
        assert_eq!(encode(&[Datum::TimestampTz(ts)])[1..], second);
        parts[0] = 13;
        assert_eq!(encode(&[Datum::TimestampTz(bc)]), parts);
        // An interval as its months, days and microseconds, little-endian.
        let iv = crate::repr::interval::Interval::new(1, -1, 2);
        let mut bytes = vec![14, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
        bytes.extend_from_slice(&2i64.to_le_bytes());
        assert_eq!(encode(&[Datum::Interval(iv)]), bytes);
        // A time as its seconds since midnight and nanoseconds.
        let t = crate::repr::time::Time::from_micros(3_600_000_001).expect("a time");
        let mut bytes = vec![11];
        bytes.extend_from_slice(&3600u32.to_le_bytes());
        bytes.extend_from_slice(&1000u32.to_le_bytes());
        assert_eq!(encode(&[Datum::Time(t)]), bytes);
    }

    /// Shorter rows first, then bytes: zero, the positives of one byte,
    /// then the negatives of one byte, then the wider ones.
    #[test]
    fn the_real_systems_order_is_not_the_values_order() {
        let sorted = order(ints(&[300, -2, 1, 0, -1, -300, 255]));
        assert_eq!(sorted, ints(&[0, -1, 1, 255, -2, 300, -300]));
        let texts = |v: &[&str]| -> Vec<Vec<Datum>> {
            v.iter().map(|s| vec![Datum::Text(s.to_string())]).collect()
        };
        assert_eq!(
            order(texts(&["aa", "b", "", "ab"])),
            texts(&["", "b", "aa", "ab"])
        );
        let bools = vec![
            vec![Datum::Bool(true)],
            vec![Datum::Null],
            vec![Datum::Bool(false)],
        ];
        let expected = vec![
            vec![Datum::Null],
            vec![Datum::Bool(false)],
            vec![Datum::Bool(true)],
        ];
        assert_eq!(order(bools), expected);
    }
}
