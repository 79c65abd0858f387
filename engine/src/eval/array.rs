//! The functions and casts of arrays, as Materialize's `func.rs` and
//! `func/variadic.rs` evaluate them (read for the facts): `ARRAY[...]`
//! (`array_create`), subscripts (`array_index`), `array_length`,
//! `array_lower` and `array_upper`, and `ANY` and `ALL` of an array as
//! the subquery the real system plans them as answers them,
//! `array_to_string`, `array_position`, `array_remove` and `||` of
//! arrays (`array_cat`). Its casts are `cast.rs`'s.

use super::errors::int4_out_of_range;
use crate::plan::{ArrayFunc, BinaryOp, ScalarExpr};
use crate::repr::array::{self, Array};
use crate::repr::{unsupported, DataflowError, Datum};

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

/// The real system's errors of `array_position` and `array_remove` of an
/// array of more than one dimension.
const MULTIDIMENSIONAL_SEARCH: &str =
    "searching for elements in multidimensional arrays is not supported";
/// The refusal of `||` of arrays whose shapes do not fit.
const INCOMPATIBLE: &str = "|| of incompatible arrays (Materialize's error has a DETAIL)";
const MULTIDIMENSIONAL_REMOVAL: &str =
    "removing elements from multidimensional arrays is not supported";

/// `array_to_string(a, delimiter[, null_string])` of its arguments'
/// values, as the real system's: NULL when the array or the delimiter
/// is; every element of every dimension in order, its text as
/// [`array::element_text`] writes it, a NULL one left out or, when the
/// NULL string is given and not NULL, written as it.
pub fn to_string(args: &[Datum]) -> Datum {
    let (Datum::Array(a), Datum::Text(delimiter)) = (&args[0], &args[1]) else {
        return Datum::Null;
    };
    let null_string = match args.get(2) {
        Some(Datum::Text(n)) => Some(n.as_str()),
        _ => None,
    };
    let texts: Vec<String> = a
        .elements
        .iter()
        .filter_map(|e| match e {
            Datum::Null => null_string.map(str::to_string),
            e => Some(array::element_text(e)),
        })
        .collect();
    Datum::Text(texts.join(delimiter))
}

/// `array_position(a, x[, start])` of its arguments' values, as the real
/// system's: NULL of a NULL array; an error of one of more than one
/// dimension; NULL when `x` is NULL (never found, as a NULL element is
/// not) or not found; the error of a NULL `start`. The search begins at
/// the 1-based `start` (before 1: at 1), elements compared as the real
/// system's datums (`-0 = 0`).
pub fn position(args: &[Datum]) -> Result<Datum, DataflowError> {
    let Some(a) = one_dimension(&args[0], MULTIDIMENSIONAL_SEARCH)? else {
        return Ok(Datum::Null);
    };
    let x = &args[1];
    if *x == Datum::Null {
        return Ok(Datum::Null);
    }
    let skip = match args.get(2) {
        None => 0,
        Some(Datum::Int32(start)) => usize::try_from(*start).unwrap_or(0).saturating_sub(1),
        Some(_) => return Err(DataflowError::eval("initial position must not be null")),
    };
    let found = a
        .elements
        .iter()
        .skip(skip)
        .position(|e| Array::element_cmp(e, x).is_eq());
    Ok(found.map_or(Datum::Null, |i| {
        Datum::Int32(i32::try_from(i + skip + 1).expect("fewer elements than i32::MAX"))
    }))
}

/// `a || b` (`array_cat`) of its arguments' values, as the real system's
/// `array_array_concat`: a NULL or empty array is the other; of as many
/// dimensions, the first dimensions' lengths added, the others equal;
/// of one dimension fewer, an element of the other, before or after.
pub fn cat(mut args: Vec<Datum>) -> Result<Datum, DataflowError> {
    let b = args.pop().expect("two arguments");
    let a = args.pop().expect("two arguments");
    let (Datum::Array(a), Datum::Array(b)) = (&a, &b) else {
        return Ok(if a == Datum::Null { b } else { a });
    };
    if a.dims.is_empty() {
        return Ok(Datum::Array(b.clone()));
    }
    if b.dims.is_empty() {
        return Ok(Datum::Array(a.clone()));
    }
    // The real system's error (`cannot concatenate incompatible arrays`)
    // has a detail (`Arrays of 1 and 3 dimensions are not compatible for
    // concatenation.`), which an error here cannot carry: refused.
    let incompatible = || DataflowError::eval(&unsupported(INCOMPATIBLE));
    let (an, bn) = (a.dims.len(), b.dims.len());
    let (first, rest) = match an.cmp(&bn) {
        std::cmp::Ordering::Equal if a.dims[1..] == b.dims[1..] => {
            (a.dims[0].length + b.dims[0].length, &a.dims[1..])
        }
        std::cmp::Ordering::Less if a.dims[..] == b.dims[1..] => {
            (b.dims[0].length + 1, &a.dims[..])
        }
        std::cmp::Ordering::Greater if a.dims[1..] == b.dims[..] => {
            (a.dims[0].length + 1, &b.dims[..])
        }
        _ => return Err(incompatible()),
    };
    let mut lengths = vec![first];
    lengths.extend(rest.iter().map(|d| d.length));
    let elements = a.elements.iter().chain(&b.elements).cloned().collect();
    Array::new(elements, &lengths)
        .map(|a| Datum::Array(Box::new(a)))
        .map_err(|e| DataflowError::eval(&e))
}

/// The array of a function that reads one dimension at most (`None`: a
/// NULL), or the real system's error `multidimensional` of one of more.
fn one_dimension<'a>(
    d: &'a Datum,
    multidimensional: &str,
) -> Result<Option<&'a Array>, DataflowError> {
    match d {
        Datum::Array(a) if a.dims.len() > 1 => Err(DataflowError::eval(multidimensional)),
        Datum::Array(a) => Ok(Some(a)),
        _ => Ok(None),
    }
}

/// `array_remove(a, x)` of its arguments' values, as the real system's:
/// NULL of a NULL array; the empty array as it is; an error of one of
/// more than one dimension; else the elements not equal to `x`, compared
/// as its datums are (a NULL `x` removes the NULL elements).
pub fn remove(args: &[Datum]) -> Result<Datum, DataflowError> {
    let Some(a) = one_dimension(&args[0], MULTIDIMENSIONAL_REMOVAL)? else {
        return Ok(Datum::Null);
    };
    if a.dims.is_empty() {
        return Ok(args[0].clone());
    }
    let kept = a
        .elements
        .iter()
        .filter(|e| Array::element_cmp(e, &args[1]).is_ne())
        .cloned()
        .collect();
    Ok(Datum::Array(Box::new(Array::list(kept))))
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
    fn array_to_string_skips_or_replaces_nulls() {
        let text = |s: &str| Datum::Text(s.into());
        let a = ints("{{1,NULL},{3,4}}");
        assert_eq!(to_string(&[a.clone(), text(",")]), text("1,3,4"));
        assert_eq!(
            to_string(&[a.clone(), text(","), Datum::Null]),
            text("1,3,4")
        );
        assert_eq!(
            to_string(&[a.clone(), text("-"), text("*")]),
            text("1-*-3-4")
        );
        assert_eq!(to_string(&[a, Datum::Null]), Datum::Null);
        assert_eq!(to_string(&[ints("{}"), text(",")]), text(""));
        let bools = Datum::Array(Box::new(Array::list(vec![Datum::Bool(true)])));
        assert_eq!(to_string(&[bools, text(",")]), text("t"));
    }

    #[test]
    fn array_position_from_a_start_never_finds_null() {
        let at = |a: &str, x: Datum, start: Option<Datum>| {
            let mut args = vec![ints(a), x];
            args.extend(start);
            position(&args)
        };
        let int = |i| Datum::Int32(i);
        assert_eq!(at("{1,2,1}", int(1), None), Ok(int(1)));
        assert_eq!(at("{1,2,1}", int(1), Some(int(2))), Ok(int(3)));
        assert_eq!(at("{1,2,1}", int(1), Some(int(-5))), Ok(int(1)));
        assert_eq!(at("{1,2,1}", int(1), Some(int(4))), Ok(Datum::Null));
        assert_eq!(at("{1,NULL}", Datum::Null, None), Ok(Datum::Null));
        assert_eq!(at("{}", int(1), None), Ok(Datum::Null));
        let null_start = at("{1}", int(1), Some(Datum::Null)).unwrap_err();
        assert_eq!(null_start.what(), "initial position must not be null");
        let nested = at("{{1}}", int(1), None).unwrap_err();
        assert_eq!(
            nested.what(),
            "searching for elements in multidimensional arrays is not supported"
        );
    }

    #[test]
    fn concatenation_of_arrays_of_as_many_or_one_more_dimension() {
        let cat2 = |a: &str, b: &str| {
            let of = |s: &str| if s == "NULL" { Datum::Null } else { ints(s) };
            cat(vec![of(a), of(b)]).map(|d| d.to_string())
        };
        let ok = |s: &str| Ok(s.to_string());
        assert_eq!(cat2("{1,2}", "{3}"), ok("{1,2,3}"));
        assert_eq!(cat2("{{1,2}}", "{{3,4}}"), ok("{{1,2},{3,4}}"));
        assert_eq!(cat2("{1,2}", "{{3,4}}"), ok("{{1,2},{3,4}}"));
        assert_eq!(cat2("{{1,2}}", "{3,4}"), ok("{{1,2},{3,4}}"));
        assert_eq!(cat2("{}", "{{3,4}}"), ok("{{3,4}}"));
        assert_eq!(cat2("{1}", "NULL"), ok("{1}"));
        assert_eq!(cat2("NULL", "NULL"), ok("NULL"));
        let incompatible = unsupported(INCOMPATIBLE);
        for (a, b) in [("{1}", "{{{1}}}"), ("{{1,2}}", "{{3}}"), ("{1}", "{{3,4}}")] {
            assert_eq!(cat2(a, b).unwrap_err().what(), incompatible, "{a} {b}");
        }
    }

    #[test]
    fn array_remove_of_one_dimension_removes_every_equal_element() {
        let rm = |a: &str, x: Datum| remove(&[ints(a), x]).map(|d| d.to_string());
        assert_eq!(rm("{1,2,1}", Datum::Int32(1)), Ok("{2}".into()));
        assert_eq!(rm("{1,NULL}", Datum::Null), Ok("{1}".into()));
        assert_eq!(rm("{1}", Datum::Int32(1)), Ok("{}".into()));
        assert_eq!(rm("{}", Datum::Int32(1)), Ok("{}".into()));
        let nested = rm("{{1}}", Datum::Int32(1)).unwrap_err();
        assert_eq!(
            nested.what(),
            "removing elements from multidimensional arrays is not supported"
        );
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
