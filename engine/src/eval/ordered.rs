//! The order-sensitive aggregates over one group: `string_agg`,
//! `jsonb_agg`, `jsonb_object_agg`, and `array_agg` with an `ORDER BY` in
//! its call. Each row gives its value,
//! its further arguments and its ORDER BY keys; the rows are sorted as
//! Materialize's `order_aggregate_datums` sorts them (by the keys, then by
//! the value and arguments, NULL after every value) and their values
//! joined as its `string_agg`, `jsonb_agg`, `dict_agg` and `array_concat`
//! join them
//! (`expr/src/relation/func.rs`).

use super::errors::type_error;
use crate::plan::{compare_rows, AggregateFunc, OrderColumn, Ties};
use crate::repr::array::Array;
use crate::repr::jsonb::Jsonb;
use crate::repr::{DataflowError, Datum, Row};

/// Applies the order-sensitive `func` to one group's rows, each
/// `[value, arguments..., keys...]` with its (consolidated, positive)
/// multiplicity; `order` names the key columns, after the first `payload`.
pub fn ordered_aggregate(
    func: AggregateFunc,
    order: &[OrderColumn],
    payload: usize,
    mut rows: Vec<(Row, i64)>,
) -> Result<Datum, DataflowError> {
    let order = match crate::mutation::aggregate_order_ignored() {
        true => &[][..],
        false => order,
    };
    rows.sort_by(|(a, _), (b, _)| {
        compare_rows(order, a, b).then_with(|| Ties::Datums.compare(&a[..payload], &b[..payload]))
    });
    let copies = |m: i64| {
        usize::try_from(m).map_err(|_| DataflowError::eval("aggregate of too many values"))
    };
    match func {
        AggregateFunc::StringAgg => {
            let mut out: Option<String> = None;
            for (row, m) in &rows {
                // A NULL value is skipped, a NULL separator is empty.
                let value = match &row[0] {
                    Datum::Null => continue,
                    Datum::Text(s) => s,
                    d => return Err(type_error("string_agg", d)),
                };
                let separator = match row.get(1).unwrap_or(&Datum::Null) {
                    Datum::Text(s) => s.as_str(),
                    _ => "",
                };
                for _ in 0..copies(*m)? {
                    match out.as_mut() {
                        // The first value is not preceded by its separator.
                        None => out = Some(value.clone()),
                        Some(s) => {
                            s.push_str(separator);
                            s.push_str(value);
                        }
                    }
                }
            }
            Ok(out.map_or(Datum::Null, Datum::Text))
        }
        AggregateFunc::ArrayAgg => {
            if rows.is_empty() {
                return Ok(Datum::Null);
            }
            // Under a FILTER, its condition follows the value: a row it
            // does not hold for adds Materialize's identity, the empty
            // array, so a group of only those is `{}`.
            let mut elements = Vec::new();
            for (row, m) in rows {
                if payload > 1 && row[1] != Datum::Bool(true) {
                    continue;
                }
                elements.extend(std::iter::repeat_n(row[0].clone(), copies(m)?));
            }
            Ok(Datum::Array(Box::new(Array::list(elements))))
        }
        AggregateFunc::JsonbAgg => {
            // A NULL is a row the FILTER dropped: its value is else a jsonb.
            let mut elements = Vec::new();
            for (row, m) in rows {
                match &row[0] {
                    Datum::Null => continue,
                    Datum::Jsonb(j) => elements.extend(std::iter::repeat_n(*j.clone(), copies(m)?)),
                    d => return Err(type_error("jsonb_agg", d)),
                }
            }
            Ok(Datum::Jsonb(Box::new(Jsonb::Array(elements))))
        }
        AggregateFunc::JsonbObjectAgg => {
            // Materialize's `dict_agg`: a NULL key (or a row the FILTER
            // dropped) is left out, and of a key the last value in order
            // is kept, as `Jsonb::object` keeps it.
            let mut entries = Vec::new();
            for (row, _) in rows {
                match (&row[0], &row[1]) {
                    (Datum::Text(k), Datum::Jsonb(v)) => entries.push((k.clone(), *v.clone())),
                    (Datum::Null, _) | (_, Datum::Null) => continue,
                    (d, _) => return Err(type_error("jsonb_object_agg", d)),
                }
            }
            Ok(Datum::Jsonb(Box::new(Jsonb::object(entries))))
        }
        _ => unreachable!("{func:?} is not order-sensitive"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::{Int32, Null, Text};

    fn text(s: &str) -> Datum {
        Text(s.into())
    }

    fn string_agg(order: &[OrderColumn], rows: Vec<(Row, i64)>) -> Datum {
        ordered_aggregate(AggregateFunc::StringAgg, order, 2, rows).expect("no error")
    }

    #[test]
    fn string_agg_without_order_sorts_by_value_then_separator() {
        let rows = vec![
            (vec![text("b"), text("-")], 1),
            (vec![text("a"), text("+")], 2),
            (vec![Null, text("!")], 1),
            (vec![text("a"), Null], 1),
        ];
        // `a` with `+` twice, then `a` with no separator, then `b`.
        assert_eq!(string_agg(&[], rows), text("a+aa-b"));
        assert_eq!(string_agg(&[], vec![(vec![Null, text(",")], 3)]), Null);
        assert_eq!(string_agg(&[], vec![]), Null);
    }

    #[test]
    fn string_agg_orders_by_its_keys_then_breaks_ties_by_value() {
        let rows = vec![
            (vec![text("x"), text(","), Int32(2)], 1),
            (vec![text("z"), text(";"), Null], 1),
            (vec![text("y"), text(","), Int32(1)], 1),
            (vec![text("w"), text(","), Int32(2)], 1),
        ];
        let asc = [OrderColumn::new(2, false)];
        assert_eq!(string_agg(&asc, rows.clone()), text("y,w,x;z"));
        let desc = [OrderColumn::new(2, true)];
        assert_eq!(string_agg(&desc, rows.clone()), text("z,w,x,y"));
        let nulls_first = [OrderColumn {
            nulls_last: false,
            ..asc[0]
        }];
        assert_eq!(string_agg(&nulls_first, rows), text("z,y,w,x"));
    }

    #[test]
    fn array_agg_keeps_nulls_in_the_order_of_its_keys() {
        let rows = vec![
            (vec![Int32(1), Int32(3)], 2),
            (vec![Null, Int32(1)], 1),
            (vec![Int32(5), Int32(2)], 1),
        ];
        let order = [OrderColumn::new(1, true)];
        let agg = ordered_aggregate(AggregateFunc::ArrayAgg, &order, 1, rows);
        let expected = Array::list(vec![Int32(1), Int32(1), Int32(5), Null]);
        assert_eq!(agg, Ok(Datum::Array(Box::new(expected))));
    }

    #[test]
    fn jsonb_object_agg_keeps_the_last_value_of_a_key_and_drops_null_keys() {
        let j = |t: &str| Datum::Jsonb(Box::new(crate::repr::jsonb::parse(t).unwrap()));
        let rows = vec![
            (vec![text("a"), j("1"), Int32(2)], 1),
            (vec![text("a"), j("2"), Int32(1)], 3),
            (vec![Null, j("3"), Int32(0)], 1),
            (vec![text("b"), Null, Int32(0)], 1),
        ];
        let order = [OrderColumn::new(2, false)];
        let agg = ordered_aggregate(AggregateFunc::JsonbObjectAgg, &order, 2, rows.clone());
        assert_eq!(agg, Ok(j(r#"{"a":1}"#)));
        // Without an ORDER BY, ties by key then value: the greatest value.
        let agg = ordered_aggregate(AggregateFunc::JsonbObjectAgg, &[], 2, rows);
        assert_eq!(agg, Ok(j(r#"{"a":2}"#)));
        let values = vec![(vec![j("1")], 2), (vec![Null], 1), (vec![j("null")], 1)];
        let agg = ordered_aggregate(AggregateFunc::JsonbAgg, &[], 1, values);
        assert_eq!(agg, Ok(j("[1,1,null]")));
        let agg = ordered_aggregate(AggregateFunc::JsonbAgg, &[], 1, vec![(vec![Null], 1)]);
        assert_eq!(agg, Ok(j("[]")));
    }
}
