//! The packed encoding held to the rows it packs: order, equality, hash,
//! round trips and projections, over datums chosen to meet every edge of
//! the order and over random rows.

use differential_dataflow::Hashable;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use super::*;
use crate::repr::array::Array;
use crate::repr::jsonb::{self, Jsonb};
use crate::repr::range::{self, Range};

/// Datums chosen to meet every edge of the order: NULL, both widths and
/// their extremes, negatives, numerics of every sign and magnitude and NaN,
/// text prefixes, the empty text, long text (a row on the heap), and
/// floats at their edges (`-0` beside `0`, the infinities, NaN of
/// either sign, which packs as the one NaN).
fn datums() -> Vec<Datum> {
    let numeric =
        |mantissa: i128, scale: u32| Datum::Numeric(Numeric::quotient(mantissa, 10i128.pow(scale)));
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
        Datum::Numeric(Numeric::NAN),
        Datum::Text(String::new()),
        Datum::Text("a".into()),
        Datum::Text("a\0".into()),
        Datum::Text("ab".into()),
        Datum::Text("b".into()),
        Datum::Text("é".into()),
        Datum::Text("a much longer text than fits inline".into()),
        Datum::Float32(F32::new(f32::NEG_INFINITY)),
        Datum::Float32(F32::new(-0.0)),
        Datum::Float32(F32::new(0.0)),
        Datum::Float32(F32::new(1.5)),
        Datum::Float32(F32::new(f32::NAN)),
        Datum::Float64(F64::new(f64::NEG_INFINITY)),
        Datum::Float64(F64::new(-1e300)),
        Datum::Float64(F64::new(-0.0)),
        Datum::Float64(F64::new(0.0)),
        Datum::Float64(F64::new(f64::MIN_POSITIVE)),
        Datum::Float64(F64::new(0.1)),
        Datum::Float64(F64::new(f64::INFINITY)),
        Datum::Float64(F64::new(f64::NAN)),
        Datum::Float64(F64::new(-f64::NAN)),
        Datum::Int16(i16::MIN),
        Datum::Int16(-1),
        Datum::Int16(0),
        Datum::Int16(256),
        Datum::Int16(i16::MAX),
        Datum::Date(Date::MIN),
        Datum::Date(Date::from_days(-1).expect("a date")),
        Datum::Date(Date::from_days(0).expect("a date")),
        Datum::Date(Date::from_days(256).expect("a date")),
        Datum::Date(Date::MAX),
        Datum::Timestamp(DateTime::MIN),
        Datum::Timestamp(DateTime::from_micros(-1).expect("a timestamp")),
        Datum::Timestamp(DateTime::from_micros(0).expect("a timestamp")),
        Datum::Timestamp(DateTime::from_micros(86_400_000_000).expect("a timestamp")),
        Datum::Timestamp(DateTime::MAX),
        // Intervals: months before days before microseconds, each signed.
        Datum::Interval(Interval::new(i32::MIN, i32::MIN, i64::MIN)),
        Datum::Interval(Interval::new(-1, 40, 0)),
        Datum::Interval(Interval::new(0, -1, 86_400_000_000)),
        Datum::Interval(Interval::new(0, 0, -1)),
        Datum::Interval(Interval::new(0, 0, 0)),
        Datum::Interval(Interval::new(0, 30, 0)),
        Datum::Interval(Interval::new(1, 0, 0)),
        Datum::Interval(Interval::new(i32::MAX, i32::MAX, i64::MAX)),
        // Ranges: empty first, then by lower bound (infinite first), then
        // by upper (infinite last), bounds of integers and numerics.
        range(None),
        range(Some((None, None))),
        range(Some((None, Some(Datum::Int32(-1))))),
        range(Some((Some(Datum::Int32(-1)), Some(Datum::Int32(1))))),
        range(Some((Some(Datum::Int32(-1)), None))),
        range(Some((Some(Datum::Int64(7)), Some(Datum::Int64(9))))),
        range(Some((Some(numeric(-15, 1)), Some(numeric(25, 1))))),
        // The unsigned integers, each width after the last.
        Datum::UInt16(0),
        Datum::UInt16(256),
        Datum::UInt16(u16::MAX),
        Datum::UInt32(0),
        Datum::UInt32(1 << 31),
        Datum::UInt32(u32::MAX),
        Datum::UInt64(0),
        Datum::UInt64(1 << 63),
        Datum::UInt64(u64::MAX),
        Datum::TimestampTz(DateTime::MIN),
        Datum::TimestampTz(DateTime::from_micros(-1).expect("a timestamp")),
        Datum::TimestampTz(DateTime::from_micros(0).expect("a timestamp")),
        Datum::TimestampTz(DateTime::MAX),
    ]
    .into_iter()
    .chain(JSONB_EDGES.iter().map(|s| jsonb_datum(s)))
    .chain(array_edges())
    .chain([Time::MIN, Time::from_micros(1).expect("a time"), Time::MAX].map(Datum::Time))
    .chain(list_edges())
    .chain([vec![], vec![0], vec![0, 0], vec![0xff], b"a".to_vec()].map(Datum::Bytes))
    .collect()
}

/// Arrays: empty, of NULL elements, a prefix of another, two dimensions,
/// text elements and a lower bound other than 1.
fn array_edges() -> Vec<Datum> {
    let int = |i: i32| Datum::Int32(i);
    let array = |elements: Vec<Datum>, lengths: &[usize]| {
        Datum::Array(Box::new(Array::new(elements, lengths).expect("an array")))
    };
    let mut shifted = Array::list(vec![int(1), int(2)]);
    shifted.dims[0].lower = 0;
    vec![
        array(vec![], &[]),
        array(vec![Datum::Null], &[1]),
        array(vec![int(1)], &[1]),
        array(vec![int(1), Datum::Null], &[2]),
        array(vec![int(1), int(2), int(3), int(4)], &[2, 2]),
        array(vec![int(1), int(2), int(3), int(4)], &[4]),
        array(
            vec![Datum::Text("a,b".into()), Datum::Text(String::new())],
            &[2],
        ),
        Datum::Array(Box::new(shifted)),
    ]
}

/// Lists: empty, of NULL, a prefix of another, nested and ragged, of
/// texts to escape.
fn list_edges() -> Vec<Datum> {
    let int = |i: i32| Datum::Int32(i);
    vec![
        Datum::List(vec![]),
        Datum::List(vec![Datum::Null]),
        Datum::List(vec![int(1)]),
        Datum::List(vec![int(1), Datum::Null]),
        Datum::List(vec![int(1), int(2)]),
        Datum::List(vec![Datum::List(vec![]), Datum::List(vec![int(1), int(2)])]),
        Datum::List(vec![Datum::List(vec![int(1)]), Datum::Null]),
        Datum::List(vec![Datum::Text("a,b".into()), Datum::Text(String::new())]),
    ]
}

/// jsonb values at the edges of the real system's order: the kinds in
/// their order, prefixes of arrays, objects differing in a key or a
/// value, numbers of one value written two ways, a long one (on the heap).
const JSONB_EDGES: &[&str] = &[
    "false",
    "true",
    r#""""#,
    r#""a""#,
    r#""é\u0000""#,
    "[]",
    "[null]",
    "[null,1]",
    "[[]]",
    "{}",
    r#"{"a":2}"#,
    r#"{"a":10}"#,
    r#"{"a":2,"b":[]}"#,
    r#"{"b":1}"#,
    "-1.50",
    "0",
    "1.0",
    "1e38",
    "null",
    r#"{"long":"abcdefghijklmnopqrstuvwxyz","more":[1,2,3]}"#,
];

fn jsonb_datum(s: &str) -> Datum {
    Datum::Jsonb(Box::new(jsonb::parse(s).expect("a jsonb")))
}

/// Random jsonb values two levels deep, of few distinct leaves, so that
/// equal and nearly equal values meet.
fn jsonb_value() -> impl Strategy<Value = Jsonb> {
    let leaf = prop_oneof![
        Just(Jsonb::Null),
        any::<bool>().prop_map(Jsonb::Bool),
        (-3i128..3).prop_map(|i| Jsonb::Number(Numeric::from_i128(i))),
        "[ab]{0,2}".prop_map(Jsonb::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Jsonb::Array),
            prop::collection::vec(("[ab]{0,1}", inner), 0..3).prop_map(Jsonb::object),
        ]
    })
}

/// A canonical `[lower, upper)` range of these bounds (`None` empty).
fn range(bounds: Option<(Option<Datum>, Option<Datum>)>) -> Datum {
    let r = match bounds {
        None => Range::EMPTY,
        Some((lower, upper)) => {
            let lower = range::bound(lower.unwrap_or(Datum::Null), true);
            let upper = range::bound(upper.unwrap_or(Datum::Null), false);
            Range::new(lower, upper).expect("a range")
        }
    };
    Datum::Range(Box::new(r))
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
        Just(Datum::Numeric(Numeric::NAN)),
        "[ab\\x00é]{0,4}".prop_map(Datum::Text),
        "[a-z]{20,30}".prop_map(Datum::Text),
        any::<f32>().prop_map(|f| Datum::Float32(F32::new(f))),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(f64::NAN),
            Just(-f64::NAN),
            any::<f64>()
        ]
        .prop_map(|f| Datum::Float64(F64::new(f))),
        any::<i16>().prop_map(Datum::Int16),
        (Date::MIN.days()..=Date::MAX.days())
            .prop_map(|d| Datum::Date(Date::from_days(d.into()).expect("a date"))),
        (DateTime::MIN.micros()..=DateTime::MAX.micros())
            .prop_map(|t| Datum::Timestamp(DateTime::from_micros(t).expect("a timestamp"))),
        (DateTime::MIN.micros()..=DateTime::MAX.micros())
            .prop_map(|t| Datum::TimestampTz(DateTime::from_micros(t).expect("a timestamp"))),
        (any::<i32>(), any::<i32>(), any::<i64>())
            .prop_map(|(m, d, us)| Datum::Interval(Interval::new(m, d, us))),
        // Ranges of small integers, inclusive or not, some infinite.
        (-3i32..3, 0i32..4, any::<(bool, bool, bool, bool)>()).prop_map(
            |(low, width, (li, ui, linf, uinf))| {
                let value = |infinite: bool, v: i32| match infinite {
                    true => Datum::Null,
                    false => Datum::Int32(v),
                };
                let lower = range::bound(value(linf, low), li);
                let upper = range::bound(value(uinf, low + width), ui);
                Datum::Range(Box::new(Range::new(lower, upper).expect("ordered bounds")))
            }
        ),
        any::<u16>().prop_map(Datum::UInt16),
        any::<u32>().prop_map(Datum::UInt32),
        any::<u64>().prop_map(Datum::UInt64),
        jsonb_value().prop_map(|j| Datum::Jsonb(Box::new(j))),
        (Time::MIN.micros()..=Time::MAX.micros())
            .prop_map(|t| Datum::Time(Time::from_micros(t).expect("a time"))),
        prop::collection::vec(any::<u8>(), 0..4).prop_map(Datum::Bytes),
        // Arrays of a few small integers or NULLs, one or two dimensions.
        (
            prop::collection::vec(prop::option::of(-2i32..2), 0..5),
            any::<bool>()
        )
            .prop_map(|(elements, square)| {
                let elements: Vec<Datum> = elements
                    .into_iter()
                    .map(|e| e.map_or(Datum::Null, Datum::Int32))
                    .collect();
                let n = elements.len();
                let lengths = match (square, n) {
                    (true, 4) => vec![2, 2],
                    _ => vec![n],
                };
                Datum::Array(Box::new(Array::new(elements, &lengths).expect("an array")))
            }),
        // Lists of a few small integers or NULLs, some nested.
        prop::collection::vec(prop::option::of(-2i32..2), 0..4).prop_map(|elements| {
            let d = |e: Option<i32>| e.map_or(Datum::Null, Datum::Int32);
            Datum::List(elements.into_iter().map(d).collect())
        }),
        prop::collection::vec(prop::collection::vec(-1i32..1, 0..3), 0..3).prop_map(|lists| {
            let inner = |l: Vec<i32>| Datum::List(l.into_iter().map(Datum::Int32).collect());
            Datum::List(lists.into_iter().map(inner).collect())
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2048,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7a5c_0003),
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
