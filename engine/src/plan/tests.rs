//! Tests of the plan language's own rules: which predicates pin an
//! index key to literals (a fast-path peek's key), and how ORDER BY,
//! LIMIT and OFFSET order and cut rows.

use super::*;

fn eq(l: ScalarExpr, r: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Binary(BinaryOp::Eq, Box::new(l), Box::new(r))
}

fn select(predicates: Vec<ScalarExpr>) -> SimpleSelect {
    SimpleSelect {
        relation: GlobalId(1),
        predicates,
    }
}

#[test]
fn literal_key_only_when_every_key_column_is_pinned_to_its_type() {
    let columns: Vec<Column> = [("k", ScalarType::Int32), ("s", ScalarType::Text)]
        .into_iter()
        .map(|(name, typ)| Column {
            name: name.into(),
            typ,
            nullable: true,
        })
        .collect();
    let k5 = eq(ScalarExpr::Column(0), ScalarExpr::Literal(Datum::Int32(5)));
    let sa = eq(
        ScalarExpr::Literal(Datum::Text("a".into())),
        ScalarExpr::Column(1),
    );
    let key = |predicates, key: &[usize]| select(predicates).literal_key(key, &columns);
    assert_eq!(key(vec![k5.clone()], &[0]), Some(vec![Datum::Int32(5)]));
    assert_eq!(
        key(vec![sa.clone(), k5.clone()], &[0, 1]),
        Some(vec![Datum::Int32(5), Datum::Text("a".into())])
    );
    // A key column left free, a literal of another type, NULL: scan.
    assert_eq!(key(vec![k5], &[0, 1]), None);
    let mismatch = eq(
        ScalarExpr::Column(0),
        ScalarExpr::Literal(Datum::Text("5".into())),
    );
    assert_eq!(key(vec![mismatch], &[0]), None);
    let null = eq(ScalarExpr::Column(0), ScalarExpr::Literal(Datum::Null));
    assert_eq!(key(vec![null], &[0]), None);
    assert_eq!(key(vec![sa], &[0]), None);
}

#[test]
fn order_by_puts_nulls_last_ascending_and_first_descending() {
    let rows = || {
        vec![
            vec![Datum::Int64(2)],
            vec![Datum::Null],
            vec![Datum::Int64(1)],
        ]
    };
    let ordered = |order_by: Vec<OrderColumn>, limit, offset| {
        Finishing {
            order_by,
            limit,
            offset,
            shown: Vec::new(),
            project: None,
        }
        .apply(rows())
    };
    let (one, two, null) = (
        vec![Datum::Int64(1)],
        vec![Datum::Int64(2)],
        vec![Datum::Null],
    );
    let asc = OrderColumn::new(0, false);
    let desc = OrderColumn::new(0, true);
    assert_eq!(
        ordered(vec![asc], None, 0),
        vec![one.clone(), two.clone(), null.clone()]
    );
    assert_eq!(
        ordered(vec![desc], None, 0),
        vec![null.clone(), two.clone(), one.clone()]
    );
    let asc_nulls_first = OrderColumn {
        nulls_last: false,
        ..asc
    };
    assert_eq!(
        ordered(vec![asc_nulls_first], Some(2), 0),
        vec![null.clone(), one.clone()]
    );
    let desc_nulls_last = OrderColumn {
        nulls_last: true,
        ..desc
    };
    assert_eq!(ordered(vec![desc_nulls_last], Some(1), 2), vec![null]);
    assert_eq!(ordered(vec![asc], Some(1), 1), vec![two]);
}
