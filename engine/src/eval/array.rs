//! The functions and casts of arrays, as Materialize's `func.rs` and
//! `func/variadic.rs` evaluate them (read for the facts): `ARRAY[...]`
//! (`array_create`), subscripts (`array_index`), `array_length`,
//! `array_lower` and `array_upper`, and `ANY` and `ALL` of an array as
//! the subquery the real system plans them as answers them. Its casts
//! are `cast.rs`'s.

use super::errors::int4_out_of_range;
use crate::plan::{ArrayFunc, BinaryOp, ScalarExpr};
use crate::repr::array::{self, Array};
use crate::repr::{DataflowError, Datum};

/// `ARRAY[...]` of `values`: of scalars, the one-dimensional array of
/// them (none: the empty array); of arrays (`nested`), the array of a
/// dimension more, every one of the same dimensions, a NULL one of none.
pub fn create(values: Vec<Datum>, nested: bool) -> Result<Datum, DataflowError> {
    let invalid = |e: String| DataflowError::eval(&e);
    if !nested {
        let n = values.len();
        let lengths: &[usize] = if n == 0 { &[] } else { &[n] };
        return Array::new(values, lengths)
            .map(|a| Datum::Array(Box::new(a)))
            .map_err(invalid);
    }
    let dims_of = |d: &Datum| match d {
        Datum::Array(a) => a.dims.clone(),
        _ => Vec::new(),
    };
    let mut expected: Option<Vec<array::Dim>> = None;
    for d in &values {
        let actual = dims_of(d);
        if let Some(expected) = &expected {
            let mismatch = |actual: usize, expected: usize| {
                format!(
                    "number of array elements ({actual}) does not match declared cardinality ({expected})"
                )
            };
            if actual.len() != expected.len() {
                return Err(invalid(mismatch(actual.len(), expected.len())));
            }
            if let Some((e, a)) = expected.iter().zip(&actual).find(|(e, a)| e != a) {
                return Err(invalid(mismatch(a.length, e.length)));
            }
        }
        expected = Some(actual);
    }
    if expected.as_ref().is_none_or(Vec::is_empty) {
        return Ok(Datum::Array(Box::new(Array::list(Vec::new()))));
    }
    let mut lengths = vec![values.len()];
    lengths.extend(dims_of(&values[0]).iter().map(|d| d.length));
    let mut elements = Vec::new();
    for d in values {
        if let Datum::Array(a) = d {
            elements.extend(a.elements);
        }
    }
    Array::new(elements, &lengths)
        .map(|a| Datum::Array(Box::new(a)))
        .map_err(invalid)
}

/// `x op ANY (a)` (`all: false`) or `x op ALL (a)` of the array `a`, as
/// the real system plans it (`transform_ast.rs`: `x op ANY (SELECT e FROM
/// unnest(a))`, reduced with `mz_any` or `mz_all`): the comparison of
/// `x` with every element, the elements of every dimension in order, is
/// OR'd (AND'd) in SQL's three values. An empty or NULL array unnests to
/// no rows, so it is false (true) without reading `x`; an error reading
/// `x` is the answer otherwise.
pub fn quantified(
    op: BinaryOp,
    all: bool,
    x: &ScalarExpr,
    a: &Datum,
    row: &[Datum],
) -> Result<Datum, DataflowError> {
    let Datum::Array(a) = a else {
        return Ok(Datum::Bool(all));
    };
    if a.elements.is_empty() {
        return Ok(Datum::Bool(all));
    }
    let x = x.eval(row)?;
    let mut unknown = false;
    for e in &a.elements {
        if x == Datum::Null || *e == Datum::Null {
            unknown = true;
            continue;
        }
        // The comparison as the scalar operator evaluates it.
        let literal = |d: &Datum| Box::new(ScalarExpr::Literal(d.clone()));
        match ScalarExpr::Binary(op, literal(&x), literal(e)).eval(&[])? {
            Datum::Bool(b) if b != all => return Ok(Datum::Bool(b)),
            Datum::Bool(_) => {}
            d => return Err(DataflowError::eval(&format!("{d} is no boolean"))),
        }
    }
    Ok(match unknown {
        true => Datum::Null,
        false => Datum::Bool(all),
    })
}

/// A strict function of arrays of non-NULL arguments (`None`: not one).
pub fn apply(f: ArrayFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    let (Datum::Array(a), rest) = args.split_first()? else {
        return None;
    };
    let dim = |i: &Datum| -> Option<&array::Dim> {
        let Datum::Int64(i) = i else { return None };
        let at = usize::try_from(*i).ok()?.checked_sub(1)?;
        a.dims.get(at)
    };
    let length = |d: &array::Dim| {
        i32::try_from(d.length)
            .map(Datum::Int32)
            .map_err(|_| int4_out_of_range(d.length))
    };
    Some(match (f, rest) {
        (ArrayFunc::Index, indexes) => {
            let indexes: Option<Vec<i64>> = indexes
                .iter()
                .map(|i| match i {
                    Datum::Int64(i) => Some(*i),
                    _ => None,
                })
                .collect();
            Ok(a.index(&indexes?))
        }
        // The real system's `array_upper` is the length, as its arrays'
        // lower bounds are all 1 (and so are the engine's).
        (ArrayFunc::Length | ArrayFunc::Upper, [i]) => dim(i).map_or(Ok(Datum::Null), length),
        (ArrayFunc::Lower, [i]) => Ok(dim(i).map_or(Datum::Null, |_| Datum::Int32(1))),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::aggregate;
    use crate::plan::AggregateFunc;

    fn ints(s: &str) -> Datum {
        let int = |e: &str| e.parse().map(Datum::Int32).map_err(|_| e.to_string());
        Datum::Array(Box::new(array::parse(s, int).expect("an array")))
    }

    #[test]
    fn array_of_arrays_needs_equal_dimensions() {
        let nested = create(vec![ints("{1,2}"), ints("{3,4}")], true);
        assert_eq!(nested, Ok(ints("{{1,2},{3,4}}")));
        let ragged = create(vec![ints("{1,2}"), ints("{3}")], true).unwrap_err();
        assert_eq!(
            ragged.what(),
            "number of array elements (1) does not match declared cardinality (2)"
        );
        let with_null = create(vec![ints("{1}"), Datum::Null], true).unwrap_err();
        assert_eq!(
            with_null.what(),
            "number of array elements (0) does not match declared cardinality (1)"
        );
        assert_eq!(create(vec![Datum::Null, Datum::Null], true), Ok(ints("{}")));
    }

    #[test]
    fn array_agg_sorts_by_the_datums_order_with_null_last() {
        let values = [
            (Datum::Int32(3), 2),
            (Datum::Null, 1),
            (Datum::Int32(-1), 1),
        ];
        let agg = aggregate(AggregateFunc::ArrayAgg, &values);
        assert_eq!(agg, Ok(ints("{-1,3,3,NULL}")));
        assert_eq!(aggregate(AggregateFunc::ArrayAgg, &[]), Ok(Datum::Null));
    }

    #[test]
    fn any_and_all_of_an_array_are_or_and_and_of_three_values() {
        let x = |i| ScalarExpr::Literal(Datum::Int32(i));
        let of = |x: ScalarExpr, a: &str, all| {
            let a = match a {
                "NULL" => Datum::Null,
                a => ints(a),
            };
            quantified(BinaryOp::Eq, all, &x, &a, &[])
        };
        let b = |b| Ok(Datum::Bool(b));
        assert_eq!(of(x(2), "{1,2}", false), b(true));
        assert_eq!(of(x(2), "{{1,3},{4,2}}", false), b(true));
        assert_eq!(of(x(2), "{2,NULL}", false), b(true));
        assert_eq!(of(x(2), "{1,NULL}", false), Ok(Datum::Null));
        assert_eq!(of(x(2), "{1,NULL}", true), b(false));
        assert_eq!(of(x(2), "{2,NULL}", true), Ok(Datum::Null));
        assert_eq!(of(x(2), "{2,2}", true), b(true));
        // No element, as of a NULL array, which unnests to no rows.
        for a in ["{}", "NULL"] {
            assert_eq!(of(x(2), a, false), b(false));
            assert_eq!(of(x(2), a, true), b(true));
            // The operand is read only for an element.
            let failing = ScalarExpr::Error("division by zero".into());
            assert_eq!(of(failing.clone(), a, false), b(false));
            assert!(of(failing, "{1}", false).is_err());
        }
        assert_eq!(
            of(ScalarExpr::Literal(Datum::Null), "{1}", false),
            Ok(Datum::Null)
        );
    }
}
