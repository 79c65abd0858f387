//! The functions and casts of lists, as Materialize's `func.rs`,
//! `func/variadic.rs` and `func/impls/list.rs` evaluate them (read for the
//! facts): `LIST[...]` (`list_create`), subscripts (`list_index`, 1-based,
//! NULL out of range or through a NULL), slices (`list_slice_linear`, the
//! slices of one chain taken together), `list_length`, `list_append` and
//! `list_prepend` and `list_cat` (the three `||` of lists), `list_remove`.
//! Its casts are `cast.rs`'s.

use super::errors::int4_out_of_range;
use crate::plan::ListFunc;
use crate::repr::{unsupported, DataflowError, Datum};

/// `l[i][j]...`: the element `i`, then its element `j`, ...; NULL when an
/// index is below 1 or past the end, and when a NULL is met on the way.
pub fn index(l: &Datum, indexes: &[i64]) -> Datum {
    let mut at = l.clone();
    for &i in indexes {
        let Datum::List(elements) = at else {
            return Datum::Null;
        };
        let Some(found) = usize::try_from(i)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| elements.into_iter().nth(i))
        else {
            return Datum::Null;
        };
        at = found;
    }
    at
}

/// `l[a:b][c:d]...`: the slices of one chain, each of what the last kept,
/// taken together as `list_slice_linear` takes them: a start below 1 is 1,
/// a start past its end gives the empty list. A later slice that starts
/// past the length an earlier one kept is refused: the real system's
/// arithmetic overflows there (a panic where overflow is checked).
pub fn slice(l: &[Datum], bounds: &[(i64, i64)]) -> Result<Datum, DataflowError> {
    let mut start = 0usize;
    let mut length = usize::MAX;
    for &(from, to) in bounds {
        let from = from.max(1);
        if from > to {
            return Ok(Datum::List(Vec::new()));
        }
        let inner = usize::try_from(from - 1).expect("a start of at least 1");
        let Some(left) = length.checked_sub(inner) else {
            return Err(DataflowError::eval(&unsupported(
                "a list slice starting past an earlier slice's end",
            )));
        };
        start = start.saturating_add(inner);
        let span = usize::try_from(to.abs_diff(from)).unwrap_or(usize::MAX);
        length = span.saturating_add(1).min(left);
    }
    Ok(Datum::List(
        l.iter().skip(start).take(length).cloned().collect(),
    ))
}

/// A function of lists of non-NULL arguments, where it is strict (`None`:
/// not one of these).
pub fn apply(f: ListFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    let Some(Datum::List(l)) = args.first() else {
        return None;
    };
    let ints = |rest: &[Datum]| -> Option<Vec<i64>> {
        rest.iter()
            .map(|d| match d {
                Datum::Int64(i) => Some(*i),
                _ => None,
            })
            .collect()
    };
    Some(Ok(match f {
        ListFunc::Index => index(&args[0], &ints(&args[1..])?),
        ListFunc::Slice => {
            let bounds = ints(&args[1..])?;
            let pairs: Vec<(i64, i64)> = bounds.chunks(2).map(|p| (p[0], p[1])).collect();
            return Some(slice(l, &pairs));
        }
        ListFunc::Length => match i32::try_from(l.len()) {
            Ok(n) => Datum::Int32(n),
            Err(_) => return Some(Err(int4_out_of_range(l.len()))),
        },
        _ => return None,
    }))
}

/// A function of lists that reads NULL arguments itself: `LIST[...]` (its
/// NULLs kept), `list_append`, `list_prepend` and `list_cat` (a NULL list
/// is the empty one, a NULL element kept; `list_cat` of a NULL list is the
/// other), `list_remove` (of a NULL list NULL, of a NULL element its NULLs
/// removed). `None`: not one of these.
pub fn call(f: ListFunc, args: Vec<Datum>) -> Option<Datum> {
    let elements = |d: Datum| match d {
        Datum::List(l) => Some(l),
        _ => None,
    };
    let mut args = args.into_iter();
    let (a, b) = (args.next(), args.next());
    Some(match (f, a, b) {
        (ListFunc::Create, a, b) => Datum::List(a.into_iter().chain(b).chain(args).collect()),
        (ListFunc::Append, Some(l), Some(x)) => {
            let mut l = elements(l).unwrap_or_default();
            l.push(x);
            Datum::List(l)
        }
        (ListFunc::Prepend, Some(x), Some(l)) => {
            let mut out = vec![x];
            out.extend(elements(l).unwrap_or_default());
            Datum::List(out)
        }
        (ListFunc::Cat, Some(a), Some(b)) => match (elements(a), elements(b)) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Datum::List(a)
            }
            (Some(a), None) => Datum::List(a),
            (None, Some(b)) => Datum::List(b),
            (None, None) => Datum::Null,
        },
        (ListFunc::Remove, Some(l), Some(x)) => match elements(l) {
            Some(l) => Datum::List(l.into_iter().filter(|e| *e != x).collect()),
            None => Datum::Null,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i32]) -> Vec<Datum> {
        v.iter().map(|i| Datum::Int32(*i)).collect()
    }

    #[test]
    fn slices_take_their_bounds_together() {
        let l = ints(&[1, 2, 3, 4, 5]);
        let s = |b: &[(i64, i64)]| slice(&l, b).unwrap().to_string();
        assert_eq!(s(&[(2, 3)]), "{2,3}");
        assert_eq!(s(&[(3, 5), (1, 2), (1, i64::MAX - 1)]), "{3,4}");
        assert_eq!(s(&[(100, i64::MAX - 1)]), "{}");
        assert_eq!(s(&[(-100, 99)]), "{1,2,3,4,5}");
        assert_eq!(s(&[(-100, -99)]), "{}");
        assert_eq!(s(&[(2, 1)]), "{}");
        assert_eq!(s(&[(1, i64::MAX - 1), (i64::MAX, i64::MAX)]), "{}");
        assert!(slice(&l, &[(1, 2), (5, 6)]).is_err());
        assert_eq!(s(&[(-i64::MAX, i64::MAX)]), "{1,2,3,4,5}");
    }

    #[test]
    fn indexes_are_one_based_and_null_outside() {
        let nested = Datum::List(vec![Datum::List(ints(&[1, 2])), Datum::Null]);
        assert_eq!(index(&nested, &[1, 2]), Datum::Int32(2));
        assert_eq!(index(&nested, &[2, 1]), Datum::Null);
        assert_eq!(index(&nested, &[0]), Datum::Null);
        assert_eq!(index(&nested, &[-1]), Datum::Null);
        assert_eq!(index(&nested, &[3]), Datum::Null);
        assert_eq!(index(&nested, &[i64::MAX]), Datum::Null);
    }
}
