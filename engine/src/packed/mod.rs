//! A row packed into bytes: the form the oks arrangements keep their keys
//! and rows in. A `Vec<Datum>` is a heap allocation of 32 bytes a datum
//! (and one more per text); a `PackedRow` is a tag byte per datum followed
//! by its bytes, kept inline in the 24-byte value while it fits
//! (`INLINE` bytes: two `bigint`s, four `integer`s), else in one boxed slice.
//!
//! Encoding, per datum: `Null`; `false`; `true`; `Int32` and 4 bytes;
//! `Int64` and 8 bytes; `Numeric` and its 24 bytes (`Numeric::to_bytes`);
//! `Text` and its length (4 bytes) and UTF-8 bytes. Integers are
//! little-endian. The encoding of a row is unique, so equal bytes are equal
//! rows.
//!
//! The order (`Ord`) and hash (`Hash`) are the `Vec<Datum>`'s it encodes,
//! decoded datum by datum: arrangements sort, peeks and imports read, and
//! exchanges route a packed key exactly as they did the row.
//!
//! In an arrangement the rows lie back to back in one byte vector
//! (`container::PackedRows`), and a cursor reads each in place as a
//! `PackedRef`, which orders and unpacks as the `PackedRow` it was.

mod container;
mod offsets;
mod updates;

pub use container::PackedRows;
pub use offsets::Offsets;
pub use updates::{PackedUpdates, SealedSizes, Update};

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::repr::{Datum, Numeric, Row};

/// Bytes kept inline: a `PackedRow` is as large as a `Vec`.
const INLINE: usize = 22;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT32: u8 = 3;
const INT64: u8 = 4;
const NUMERIC: u8 = 5;
const TEXT: u8 = 6;

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
            Datum::Text(s) => {
                let len = u32::try_from(s.len()).expect("a text shorter than 4 GiB");
                put(&[TEXT]);
                put(&len.to_le_bytes());
                put(s.as_bytes());
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
        }
    }
}

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
        }
        let datum = match *self {
            DatumRef::Null => AsDatum::Null,
            DatumRef::Bool(b) => AsDatum::Bool(b),
            DatumRef::Int32(i) => AsDatum::Int32(i),
            DatumRef::Int64(i) => AsDatum::Int64(i),
            DatumRef::Numeric(n) => AsDatum::Numeric(n),
            DatumRef::Text(s) => AsDatum::Text(DatumRef::text(s)),
        };
        datum.hash(state)
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
            TEXT => {
                let len = u32::from_le_bytes(self.take()) as usize;
                let (text, rest) = self.0.split_at(len);
                self.0 = rest;
                DatumRef::Text(text)
            }
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

/// The order of the rows two packings encode.
fn compare(mut a: &[u8], mut b: &[u8]) -> Ordering {
    // Integers of one width, the common case, compare without building
    // datums; anything else compares datum by datum (and two rows read to
    // their ends are equal). No test of the whole rows for equality first:
    // the batchers and merges compare distinct rows almost always, and
    // that test was a `memcmp` call each time.
    loop {
        let (ordering, width) = match (a.first(), b.first()) {
            (Some(&INT32), Some(&INT32)) => (le_i32(&a[1..]).cmp(&le_i32(&b[1..])), 4),
            (Some(&INT64), Some(&INT64)) => (le_i64(&a[1..]).cmp(&le_i64(&b[1..])), 8),
            _ => return Datums(a).cmp(Datums(b)),
        };
        if ordering != Ordering::Equal {
            return ordering;
        }
        (a, b) = (&a[1 + width..], &b[1 + width..]);
    }
}

/// The `i32` at the start of `bytes`, as `pack` wrote it.
fn le_i32(bytes: &[u8]) -> i32 {
    i32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"))
}

/// The `i64` at the start of `bytes`, as `pack` wrote it.
fn le_i64(bytes: &[u8]) -> i64 {
    i64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
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
mod tests {
    use differential_dataflow::Hashable;
    use proptest::prelude::*;

    use super::*;

    /// Datums chosen to meet every edge of the order: NULL, both widths and
    /// their extremes, negatives, numerics of every sign and magnitude,
    /// text prefixes, the empty text, and long text (a row on the heap).
    fn datums() -> Vec<Datum> {
        let numeric = |mantissa: i128, scale: u32| {
            Datum::Numeric(Numeric::quotient(mantissa, 10i128.pow(scale)))
        };
        vec![
            Datum::Null,
            Datum::Bool(false),
            Datum::Bool(true),
            Datum::Int32(i32::MIN),
            Datum::Int32(-1),
            Datum::Int32(0),
            Datum::Int32(1),
            Datum::Int32(256),
            Datum::Int32(i32::MAX),
            Datum::Int64(i64::MIN),
            Datum::Int64(-1),
            Datum::Int64(0),
            Datum::Int64(1),
            Datum::Int64(256),
            Datum::Int64(i64::MAX),
            numeric(-150, 2),
            numeric(-15, 1),
            numeric(0, 0),
            numeric(5, 1),
            numeric(15, 1),
            numeric(150, 2),
            numeric(151, 2),
            numeric(2, 0),
            numeric(i128::from(i64::MAX) * 1000, 0),
            numeric(-(i128::from(i64::MAX) * 1000), 3),
            numeric(1, 38),
            Datum::Numeric(Numeric::quotient(2, 3)),
            Datum::Numeric(Numeric::quotient(-7, 3)),
            Datum::Text(String::new()),
            Datum::Text("a".into()),
            Datum::Text("a\0".into()),
            Datum::Text("ab".into()),
            Datum::Text("b".into()),
            Datum::Text("é".into()),
            Datum::Text("a much longer text than fits inline".into()),
        ]
    }

    /// Rows of zero to two datums from `datums()`, and some longer ones.
    fn rows() -> Vec<Row> {
        let datums = datums();
        let mut rows: Vec<Row> = vec![vec![]];
        for a in &datums {
            rows.push(vec![a.clone()]);
            for b in &datums {
                rows.push(vec![a.clone(), b.clone()]);
            }
        }
        rows.push(vec![Datum::Int64(1), Datum::Int64(2), Datum::Int64(3)]);
        rows.push(vec![Datum::Int32(1); 6]);
        rows
    }

    /// Rows in flight between operators are the unpacked ones: rounded up
    /// to four datums, a two-column row took twice its bytes.
    #[test]
    fn unpacked_rows_take_exactly_their_length() {
        for len in 0..6 {
            let row: Row = (0..len).map(Datum::Int32).collect();
            let unpacked = PackedRow::pack(&row).unpack();
            assert_eq!(unpacked, row);
            assert_eq!(unpacked.capacity(), len as usize);
        }
    }

    #[test]
    fn the_order_equality_and_hash_are_the_rows() {
        let rows = rows();
        let packed: Vec<PackedRow> = rows.iter().map(|r| PackedRow::pack(r)).collect();
        for (a, pa) in rows.iter().zip(&packed) {
            assert_eq!(&pa.unpack(), a, "round trip");
            assert_eq!(pa.hashed(), a.hashed(), "hash of {a:?}");
            for (b, pb) in rows.iter().zip(&packed) {
                assert_eq!(pa.cmp(pb), a.cmp(b), "{a:?} against {b:?}");
                assert_eq!(pa == pb, a == b, "{a:?} against {b:?}");
            }
        }
    }

    fn datum() -> impl Strategy<Value = Datum> {
        prop_oneof![
            Just(Datum::Null),
            any::<bool>().prop_map(Datum::Bool),
            (-3i32..3).prop_map(Datum::Int32),
            any::<i32>().prop_map(Datum::Int32),
            (-3i64..3).prop_map(Datum::Int64),
            any::<i64>().prop_map(Datum::Int64),
            (-300i128..300, 1i128..40)
                .prop_map(|(num, den)| Datum::Numeric(Numeric::quotient(num, den))),
            "[ab\\x00é]{0,4}".prop_map(Datum::Text),
            "[a-z]{20,30}".prop_map(Datum::Text),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 2048,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Random rows of up to four datums, mostly of equal prefixes.
        #[test]
        fn random_rows_order_and_hash_as_their_datums(
            a in prop::collection::vec(datum(), 0..4),
            b in prop::collection::vec(datum(), 0..4),
            prefix in prop::collection::vec(datum(), 0..2),
        ) {
            let (a, b) = ([prefix.clone(), a].concat(), [prefix, b].concat());
            let (pa, pb) = (PackedRow::pack(&a), PackedRow::pack(&b));
            prop_assert_eq!(pa.cmp(&pb), a.cmp(&b));
            prop_assert_eq!(pa == pb, a == b);
            prop_assert_eq!(pa.hashed(), a.hashed());
            prop_assert_eq!(pa.unpack(), a);
        }
    }

    #[test]
    fn small_rows_are_inline_and_a_packed_row_is_as_large_as_a_vec() {
        assert_eq!(std::mem::size_of::<PackedRow>(), std::mem::size_of::<Row>());
        let two_bigints = PackedRow::pack(&[Datum::Int64(1), Datum::Int64(2)]);
        assert!(matches!(two_bigints.0, Bytes::Inline { .. }));
        let long = PackedRow::pack(&[Datum::Text("x".repeat(INLINE))]);
        assert!(matches!(long.0, Bytes::Heap(_)));
    }

    /// Packing a row's columns, or projecting its packed form, is packing
    /// the projected row (inline and on the heap alike).
    #[test]
    fn packed_columns_are_the_packed_projection() {
        for row in rows() {
            let whole = PackedRow::pack(&row);
            for columns in [vec![], vec![0], vec![1, 0], vec![1, 1], vec![0, 1, 1, 0]] {
                if columns.iter().all(|c| *c < row.len()) {
                    let projected: Row = columns.iter().map(|c| row[*c].clone()).collect();
                    let expected = PackedRow::pack(&projected);
                    let packed = PackedRow::pack_columns(&row, &columns);
                    assert_eq!(packed, expected, "{row:?} {columns:?}");
                    let from_bytes = whole.as_ref().project(&columns);
                    assert_eq!(from_bytes, expected, "{row:?} {columns:?}");
                }
            }
        }
    }

    #[test]
    fn from_bytes_reads_what_pack_wrote() {
        for row in rows() {
            let packed = PackedRow::pack(&row);
            let bytes = packed.bytes().to_vec();
            assert_eq!(PackedRow::from_bytes(&bytes), packed);
        }
    }
}
