//! The functions and operators of ranges, as the real system evaluates
//! them (its `expr/src/scalar/func/impls/range.rs`, `variadic.rs`'s
//! `RangeCreate` and `repr/src/adt/range.rs`, read for the facts): each
//! of ranges of one type, already canonical (`repr::range`).

use std::cmp::Ordering::{Equal, Greater, Less};

use crate::plan::RangeFunc;
use crate::repr::range::{
    self, bound, cmp_across, cmp_bounds, flags, Bound, Range, DISCONTIGUOUS_DIFFERENCE,
    DISCONTIGUOUS_UNION, NULL_FLAGS,
};
use crate::repr::{DataflowError, Datum};

/// `int4range(lower, upper[, flags])` and the others of a kind, of its
/// evaluated arguments: a NULL bound is infinite, NULL flags an error.
pub fn create(args: &[Datum]) -> Result<Datum, DataflowError> {
    let [lower, upper, flags_text] = args else {
        return Err(DataflowError::eval("invalid call: range constructor"));
    };
    let text = match flags_text {
        Datum::Null => return Err(DataflowError::eval(NULL_FLAGS)),
        Datum::Text(s) => s,
        other => return Err(DataflowError::eval(&format!("invalid call: flags {other}"))),
    };
    let (lower_inclusive, upper_inclusive) = flags(text).map_err(|e| DataflowError::eval(&e))?;
    let lower = bound(lower.clone(), lower_inclusive);
    let upper = bound(upper.clone(), upper_inclusive);
    let r = Range::new(lower, upper).map_err(|e| DataflowError::eval(&e))?;
    Ok(Datum::Range(Box::new(r)))
}

/// A strict function of ranges (all but `Create`) of non-NULL arguments;
/// `None` for arguments of other types (a plan not type-checked).
pub fn apply(f: RangeFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    let result = match (f, args) {
        (RangeFunc::ContainsElem, [Datum::Range(r), elem]) => Datum::Bool(r.contains(elem)),
        (_, [Datum::Range(r)]) => unary(f, r)?,
        (_, [Datum::Range(a), Datum::Range(b)]) => return binary(f, a, b),
        _ => return None,
    };
    Some(Ok(result))
}

fn unary(f: RangeFunc, r: &Range) -> Option<Datum> {
    let bounds = r.0.as_ref();
    let value = |b: Option<&Bound>| b.and_then(|b| b.value.clone()).unwrap_or(Datum::Null);
    let test = |t: fn(&Bound, &Bound) -> bool| Datum::Bool(bounds.is_some_and(|(l, u)| t(l, u)));
    Some(match f {
        RangeFunc::Lower => value(bounds.map(|(l, _)| l)),
        RangeFunc::Upper => value(bounds.map(|(_, u)| u)),
        RangeFunc::IsEmpty => Datum::Bool(bounds.is_none()),
        RangeFunc::LowerInc => test(|l, _| l.inclusive),
        RangeFunc::UpperInc => test(|_, u| u.inclusive),
        RangeFunc::LowerInf => test(|l, _| l.value.is_none()),
        RangeFunc::UpperInf => test(|_, u| u.value.is_none()),
        _ => return None,
    })
}

fn binary(f: RangeFunc, a: &Range, b: &Range) -> Option<Result<Datum, DataflowError>> {
    let both = a.0.as_ref().zip(b.0.as_ref());
    let test = |t: fn((&Bound, &Bound), (&Bound, &Bound)) -> bool| {
        Datum::Bool(both.is_some_and(|((al, au), (bl, bu))| t((al, au), (bl, bu))))
    };
    let range = |r: Range| Datum::Range(Box::new(r));
    Some(Ok(match f {
        RangeFunc::ContainsRange => Datum::Bool(contains_range(a, b)),
        RangeFunc::Overlaps => Datum::Bool(overlaps(a, b)),
        RangeFunc::Before => test(|(_, au), (bl, _)| cmp_across(au, bl, true) == Less),
        RangeFunc::After => test(|(al, _), (_, bu)| cmp_across(al, bu, false) == Greater),
        RangeFunc::OverLeft => test(|(_, au), (_, bu)| cmp_bounds(au, bu, true) != Greater),
        RangeFunc::OverRight => test(|(al, _), (bl, _)| cmp_bounds(al, bl, false) != Less),
        RangeFunc::Adjacent => Datum::Bool(adjacent(a, b)),
        RangeFunc::Union => match union(a, b) {
            Ok(r) => range(r),
            Err(e) => return Some(Err(DataflowError::eval(e))),
        },
        RangeFunc::Intersection => range(intersection(a, b)),
        RangeFunc::Difference => match difference(a, b) {
            Ok(r) => range(r),
            Err(e) => return Some(Err(DataflowError::eval(&e))),
        },
        _ => return None,
    }))
}

/// `a @> b`: the empty range is in every range.
fn contains_range(a: &Range, b: &Range) -> bool {
    match (&a.0, &b.0) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some((al, au)), Some((bl, bu))) => {
            cmp_bounds(al, bl, false) != Greater && cmp_bounds(bu, au, true) != Greater
        }
    }
}

/// `a && b`: the smaller one's upper bound reaches the other's lower.
fn overlaps(a: &Range, b: &Range) -> bool {
    let (Some((al, au)), Some((bl, bu))) = (&a.0, &b.0) else {
        return false;
    };
    let reach = match a.cmp(b) {
        Equal => Equal,
        Less => cmp_across(au, bl, true),
        Greater => cmp_across(bu, al, true),
    };
    reach != Less
}

/// `a -|- b`: one's lower bound is the other's upper, one of the two
/// inclusive.
fn adjacent(a: &Range, b: &Range) -> bool {
    let (Some((al, au)), Some((bl, bu))) = (&a.0, &b.0) else {
        return false;
    };
    let meet = |lower: &Bound, upper: &Bound| {
        lower.inclusive != upper.inclusive && lower.value.is_some() && lower.value == upper.value
    };
    meet(al, bu) || meet(bl, au)
}

/// `a + b`, which must be contiguous.
fn union(a: &Range, b: &Range) -> Result<Range, &'static str> {
    let (Some((al, au)), Some((bl, bu))) = (&a.0, &b.0) else {
        return Ok(if a.0.is_none() { b.clone() } else { a.clone() });
    };
    if !(overlaps(a, b) || adjacent(a, b)) {
        return Err(DISCONTIGUOUS_UNION);
    }
    let lower = std::cmp::min_by(al, bl, |x, y| cmp_bounds(x, y, false));
    let upper = std::cmp::max_by(au, bu, |x, y| cmp_bounds(x, y, true));
    Ok(Range(Some((lower.clone(), upper.clone()))))
}

/// `a * b`: empty unless they overlap.
fn intersection(a: &Range, b: &Range) -> Range {
    let (Some((al, au)), Some((bl, bu))) = (&a.0, &b.0) else {
        return Range::EMPTY;
    };
    if !overlaps(a, b) {
        return Range::EMPTY;
    }
    let lower = std::cmp::max_by(al, bl, |x, y| cmp_bounds(x, y, false));
    let upper = std::cmp::min_by(au, bu, |x, y| cmp_bounds(x, y, true));
    Range(Some((lower.clone(), upper.clone())))
}

/// `a - b`, which must be contiguous, made canonical again.
fn difference(a: &Range, b: &Range) -> Result<Range, String> {
    if !overlaps(a, b) {
        return Ok(a.clone());
    }
    let (Some((al, au)), Some((bl, bu))) = (&a.0, &b.0) else {
        unreachable!("ranges that overlap are not empty")
    };
    let flipped = |b: &Bound| Bound {
        inclusive: !b.inclusive,
        value: b.value.clone(),
    };
    match (cmp_bounds(al, bl, false), cmp_bounds(au, bu, true)) {
        (Less, Greater) => Err(DISCONTIGUOUS_DIFFERENCE.into()),
        (Greater | Equal, Less | Equal) => Ok(Range::EMPTY),
        (Greater | Equal, Greater) => range::Range::new(flipped(bu), au.clone()),
        (Less, Less | Equal) => range::Range::new(al.clone(), flipped(bl)),
    }
}
