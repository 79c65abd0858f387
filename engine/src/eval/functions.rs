//! Scalar functions evaluated over a row (`ScalarExpr::Call`), each as the
//! real system's overload of that name evaluates it (its
//! `expr/src/scalar/func`), with its texts for what can go wrong.
//!
//! Every argument is evaluated, left to right, as the real system's are
//! (its eager evaluation of a function's arguments): the first error is
//! the result, and only then does a NULL argument make a strict function
//! NULL, so `substr(NULL, 1 / 0)` fails. `concat` and the arguments of
//! `concat_ws` after its separator, `greatest` and `least` take NULLs:
//! NULLs are skipped; `jsonb_build_array` and `jsonb_build_object` make
//! them JSON `null`s. `string_to_array`, `array_to_string`,
//! `array_position`, `array_remove` and `||` of arrays read a NULL in
//! some arguments (`text.rs`, `array.rs`).
//! Before any of that, a call with some literal operands and some not is
//! what the real system's optimizer makes of it (`literals.rs`): NULL if
//! it is strict and one is a literal NULL, else a literal error operand.

use super::array;
use super::bytes;
use super::errors::{int4_out_of_range, int8_out_of_range_of, length_too_large, MAX_RESULT_BYTES};
use super::float_functions;
use super::int16;
use super::jsonb;
use super::list;
use super::literals::literal_operands;
use super::numeric_functions;
use super::range;
use super::text;
use super::time;
use super::to_jsonb;
use super::unsigned;
use crate::plan::{
    ArrayFunc, Func, JsonbFunc, ListFunc, RangeFunc, ScalarExpr, TextFunc, TrimSide,
};
use crate::repr::{DataflowError, Datum};
use std::cmp::Ordering;

/// Whether a NULL argument makes `func` NULL (Materialize's
/// `propagates_nulls`): all but the ones that skip or compare NULLs.
pub fn propagates_nulls(func: Func) -> bool {
    !matches!(
        func,
        Func::Concat
            | Func::Jsonb(JsonbFunc::BuildArray | JsonbFunc::BuildObject)
            | Func::ConcatWs
            | Func::Greatest
            | Func::Least
            | Func::Range(RangeFunc::Create(_))
            | Func::Text(TextFunc::StringToArray)
            | Func::Array(
                ArrayFunc::Create { .. }
                    | ArrayFunc::Quantified { .. }
                    | ArrayFunc::ToString
                    | ArrayFunc::Position
                    | ArrayFunc::Cat
                    | ArrayFunc::Remove
            )
            | Func::List(
                ListFunc::Create
                    | ListFunc::Append
                    | ListFunc::Prepend
                    | ListFunc::Cat
                    | ListFunc::Remove
            )
    )
}

/// Whether `func` can be NULL of non-NULL arguments (Materialize's
/// `introduces_nulls`): a bound of a range (infinite or empty), a jsonb's
/// missing key or element, `||` and `-` of jsonbs it has no answer for,
/// `jsonb_array_length` of a non-array, `regexp_match` of no match,
/// `array_position` of none found. Its `IS NULL` is no question of its
/// arguments alone (`sql/expr/reduce.rs`).
pub fn introduces_nulls(func: Func) -> bool {
    use crate::plan::JsonbFunc as J;
    matches!(
        func,
        Func::Range(RangeFunc::Lower | RangeFunc::Upper)
            | Func::Jsonb(
                J::GetField
                    | J::GetPath
                    | J::GetFieldText
                    | J::GetElement
                    | J::GetElementText
                    | J::Concat
                    | J::DeleteKey
                    | J::DeleteElement
                    | J::ArrayLength
            )
            | Func::Array(
                ArrayFunc::Index
                    | ArrayFunc::Length
                    | ArrayFunc::Lower
                    | ArrayFunc::Upper
                    | ArrayFunc::Quantified { .. }
                    | ArrayFunc::Position
            )
            | Func::List(ListFunc::Index)
            | Func::Text(TextFunc::RegexpMatch | TextFunc::TryParseMonotonicIso8601Timestamp)
    )
}

/// `func` of `args` over `row`.
pub fn call(func: Func, args: &[ScalarExpr], row: &[Datum]) -> Result<Datum, DataflowError> {
    if let (Func::Array(ArrayFunc::Quantified { op, all }), [x, a]) = (func, args) {
        // Its operand is read only when the array has elements (see
        // `array::quantified`), so a literal error there decides nothing.
        return array::quantified(op, all, x, &a.eval(row)?, row);
    }
    if let Some(decided) = literal_operands(args, propagates_nulls(func)) {
        return decided.map_err(|what| DataflowError::eval(&what));
    }
    match func {
        Func::Concat => match evaluate_all(args, row)? {
            values if crate::mutation::concat_null() && values.contains(&Datum::Null) => {
                Ok(Datum::Null)
            }
            values => concat(&values, None),
        },
        Func::ConcatWs => match evaluate_all(args, row)?.split_first() {
            Some((Datum::Null, _)) => Ok(Datum::Null),
            Some((separator, rest)) => concat(rest, Some(&text(separator))),
            None => Err(invalid("concat_ws without arguments")),
        },
        Func::Greatest | Func::Least => {
            let values = evaluate_all(args, row)?.into_iter();
            let mut values = values.filter(|d| *d != Datum::Null);
            // The real system folds its arguments with `fallible_iterator`
            // 0.2's `max` and `min`, which keep the later of two equals,
            // in its `Datum` order, where a float's `-0` equals `0`.
            let kept = match func {
                Func::Greatest => Ordering::Greater,
                _ => Ordering::Less,
            };
            let first = values.next();
            let found = first.map(|first| {
                values.fold(first, |acc, d| match acc.sql_cmp(&d) == kept {
                    true => acc,
                    false => d,
                })
            });
            Ok(found.unwrap_or(Datum::Null))
        }
        Func::Range(RangeFunc::Create(_)) => range::create(&evaluate_all(args, row)?),
        Func::Jsonb(f @ (JsonbFunc::BuildArray | JsonbFunc::BuildObject)) => {
            to_jsonb::build(f, &evaluate_all(args, row)?).expect("a jsonb builder")
        }
        Func::Array(ArrayFunc::Create { nested }) => {
            array::create(evaluate_all(args, row)?, nested)
        }
        Func::Array(ArrayFunc::ToString) => Ok(array::to_string(&evaluate_all(args, row)?)),
        Func::Array(ArrayFunc::Position) => array::position(&evaluate_all(args, row)?),
        Func::Array(ArrayFunc::Cat) => array::cat(evaluate_all(args, row)?),
        Func::Array(ArrayFunc::Remove) => array::remove(&evaluate_all(args, row)?),
        Func::List(f) if !propagates_nulls(func) => {
            let values = evaluate_all(args, row)?;
            list::call(f, values).ok_or_else(|| invalid(f.name()))
        }
        Func::Text(TextFunc::StringToArray) => {
            let values = evaluate_all(args, row)?;
            let arg = |i: usize| match values.get(i) {
                Some(Datum::Text(s)) => Some(s.as_str()),
                _ => None,
            };
            Ok(arg(0).map_or(Datum::Null, |s| text::string_to_array(s, arg(1), arg(2))))
        }
        strict => {
            if let Func::Text(f) = strict {
                // A literal NULL argument makes the call NULL before its
                // literal pattern is compiled, as in Materialize's reduce.
                if args.contains(&ScalarExpr::Literal(Datum::Null)) {
                    return Ok(Datum::Null);
                }
                if let Some(e) = text::literal_pattern_error(f, args) {
                    // Materialize's reduce guards `regexp_replace`'s with
                    // `IS NULL` of its text, which it evaluates first.
                    if f == TextFunc::RegexpReplace && args[0].eval(row)? == Datum::Null {
                        return Ok(Datum::Null);
                    }
                    return Err(e);
                }
            }
            if let Some(e) = time::literal_unit_error(strict, args) {
                return Err(e);
            }
            let values = evaluate_all(args, row)?;
            if values.contains(&Datum::Null) {
                return Ok(Datum::Null);
            }
            if let Func::Numeric(f) = strict {
                // A literal is a reduced datum in the real system too (a
                // row holds it), which `round(n, places)` reads.
                let literal = matches!(args.first(), Some(ScalarExpr::Literal(_)));
                if let Some(result) = numeric_functions::apply(f, &values, literal) {
                    return result;
                }
            }
            apply(strict, &values)
        }
    }
}

/// Every argument, left to right; the first error is the result.
fn evaluate_all(args: &[ScalarExpr], row: &[Datum]) -> Result<Vec<Datum>, DataflowError> {
    args.iter().map(|a| a.eval(row)).collect()
}

/// A strict function of non-NULL arguments of the types it was resolved for.
fn apply(func: Func, args: &[Datum]) -> Result<Datum, DataflowError> {
    use Datum::{Int32, Int64, Text};
    // A function of a family is its family's module's.
    let family = match func {
        Func::Float(f) => float_functions::apply(f, args),
        Func::Range(f) => range::apply(f, args),
        Func::Jsonb(JsonbFunc::From) => to_jsonb::build(JsonbFunc::From, args),
        Func::Jsonb(f) => jsonb::apply(f, args),
        Func::Text(f) => text::apply(f, args),
        Func::Array(f) => array::apply(f, args),
        Func::List(f) => list::apply(f, args),
        Func::Bytes(f) => bytes::apply(f, args),
        Func::Bitwise(op) => unsigned::bitwise(op, args).map(Ok),
        Func::DateTrunc | Func::Extract | Func::DatePart => time::apply(func, args),
        _ => None,
    };
    if let Some(result) = family {
        return result;
    }
    Ok(match (func, args) {
        (Func::AbsInt32, [Int32(i)]) => Int32(i.checked_abs().ok_or_else(|| int4_out_of_range(i))?),
        (Func::AbsInt16, [Datum::Int16(i)]) => int16::negate(*i, true)?,
        (Func::AbsInt64, [Int64(i)]) => {
            Int64(i.checked_abs().ok_or_else(|| int8_out_of_range_of(i))?)
        }
        (Func::CharLength, [Text(s)]) => length(s.chars().count())?,
        (Func::OctetLength, [Text(s)]) => length(s.len())?,
        (Func::BitLength, [Text(s)]) => length(s.len() * 8)?,
        (Func::Substr, [Text(s), Int32(start)]) => Text(substr(s, *start, None)?),
        (Func::Substr, [Text(s), Int32(start), Int32(count)]) => {
            Text(substr(s, *start, Some(*count))?)
        }
        (Func::Upper, [Text(s)]) => Text(s.to_uppercase()),
        (Func::Lower, [Text(s)]) => Text(s.to_lowercase()),
        (Func::Position, [Text(needle), Text(s)]) => Int32(position(needle, s)?),
        (Func::Strpos, [Text(s), Text(needle)]) => Int32(position(needle, s)?),
        (Func::Replace, [Text(s), Text(from), Text(to)]) => Text(replace(s, from, to)?),
        (Func::Left, [Text(s), Int32(n)]) => Text(left(s, *n)),
        (Func::Right, [Text(s), Int32(n)]) => Text(right(s, *n)),
        (Func::Trim(side), [Text(s)]) => Text(trim(side, s, |c| c == ' ')),
        (Func::Trim(side), [Text(s), Text(chars)]) => Text(trim(side, s, |c| chars.contains(c))),
        (Func::Repeat, [Text(s), Int32(n)]) => {
            let n = usize::try_from(*n).unwrap_or(0);
            if n.saturating_mul(s.len()) > MAX_RESULT_BYTES {
                return Err(length_too_large());
            }
            Text(s.repeat(n))
        }
        (Func::Reverse, [Text(s)]) => Text(s.chars().rev().collect()),
        (Func::Chr, [Int32(code)]) => Text(chr(*code)?),
        (Func::Lpad, [Text(s), Int32(length)]) => Text(lpad(s, *length, " ")?),
        (Func::Lpad, [Text(s), Int32(length), Text(fill)]) => Text(lpad(s, *length, fill)?),
        (func, args) => {
            let args: Vec<String> = args.iter().map(Datum::to_string).collect();
            return Err(invalid(&format!("{}({})", func.name(), args.join(", "))));
        }
    })
}

/// A length as the `integer` the length functions return.
fn length(n: usize) -> Result<Datum, DataflowError> {
    i32::try_from(n)
        .map(Datum::Int32)
        .map_err(|_| int4_out_of_range(n))
}

/// The characters of `s` from the `start`th (1-based) on, `count` of them
/// counted from `start` even where it is before the first: PostgreSQL's
/// and the real system's `substr`.
fn substr(s: &str, start: i32, count: Option<i32>) -> Result<String, DataflowError> {
    let first = i64::from(start) - 1;
    let end = match count {
        None => i64::MAX,
        Some(c) if c < 0 => {
            return Err(DataflowError::eval("negative substring length not allowed"))
        }
        Some(c) => first + i64::from(c),
    };
    let (first, end) = (first.max(0), end.max(0));
    let taken = usize::try_from(end - first.min(end)).unwrap_or(usize::MAX);
    let skipped = usize::try_from(first).unwrap_or(usize::MAX);
    Ok(s.chars().skip(skipped).take(taken).collect())
}

/// The 1-based character position of `needle` in `s`, 0 if it is absent.
fn position(needle: &str, s: &str) -> Result<i32, DataflowError> {
    let Some(byte) = s.find(needle) else {
        return Ok(0);
    };
    let before = s[..byte].chars().count();
    i32::try_from(before + 1).map_err(|_| int4_out_of_range(before))
}

/// `s` with every `from` replaced by `to`, as Rust replaces: an empty
/// `from` matches between every two characters and at both ends (the
/// real system's answer; PostgreSQL leaves `s` as it is).
fn replace(s: &str, from: &str, to: &str) -> Result<String, DataflowError> {
    if s.len().saturating_mul(to.len()) > MAX_RESULT_BYTES {
        let grown = s.matches(from).count() * to.len().saturating_sub(from.len());
        if s.len() + grown > MAX_RESULT_BYTES {
            return Err(length_too_large());
        }
    }
    Ok(s.replace(from, to))
}

/// The first `n` characters of `s`; all but the last `-n` when `n < 0`.
fn left(s: &str, n: i32) -> String {
    let count = s.chars().count();
    let n = i64::from(n);
    let keep = match n >= 0 {
        true => n,
        false => i64::try_from(count).unwrap_or(i64::MAX) + n,
    };
    s.chars().take(usize::try_from(keep).unwrap_or(0)).collect()
}

/// The last `n` characters of `s`; all but the first `-n` when `n < 0`,
/// and, as in PostgreSQL, all of `s` for the least `integer`.
fn right(s: &str, n: i32) -> String {
    let count = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
    let skip = match n {
        i32::MIN => 0,
        n if n >= 0 => count - i64::from(n),
        n => -i64::from(n),
    };
    s.chars().skip(usize::try_from(skip).unwrap_or(0)).collect()
}

fn trim(side: TrimSide, s: &str, strip: impl Fn(char) -> bool) -> String {
    match side {
        TrimSide::Both => s.trim_matches(strip),
        TrimSide::Leading => s.trim_start_matches(strip),
        TrimSide::Trailing => s.trim_end_matches(strip),
    }
    .to_string()
}

/// `concat`'s values, or `concat_ws`'s after its `separator`, NULLs skipped.
fn concat(values: &[Datum], separator: Option<&str>) -> Result<Datum, DataflowError> {
    let parts: Vec<String> = values
        .iter()
        .filter(|d| **d != Datum::Null)
        .map(text)
        .collect();
    let separators = separator.map_or(0, |s| s.len() * parts.len());
    if parts.iter().map(String::len).sum::<usize>() + separators > MAX_RESULT_BYTES {
        return Err(length_too_large());
    }
    Ok(Datum::Text(parts.join(separator.unwrap_or(""))))
}

/// A value as `concat` writes it: a boolean as `t` or `f` (PostgreSQL's
/// historical spelling, which the real system keeps there), anything else
/// as its text.
fn text(d: &Datum) -> String {
    match d {
        Datum::Bool(true) => "t".into(),
        Datum::Bool(false) => "f".into(),
        d => d.to_string(),
    }
}

/// Materialize's `chr`: the character of a code point; 0, a surrogate, a
/// negative number or one past Unicode fail with its texts.
fn chr(code: i32) -> Result<String, DataflowError> {
    let too_large = || {
        DataflowError::eval(&format!(
            "requested character too large for encoding: {code}"
        ))
    };
    let point = u32::try_from(code).map_err(|_| too_large())?;
    match point {
        0 => Err(DataflowError::eval("null character not permitted")),
        0xd800..=0xdfff => Err(DataflowError::eval(&format!(
            "requested character not valid for encoding: {code}"
        ))),
        _ => char::from_u32(point)
            .map(String::from)
            .ok_or_else(too_large),
    }
}

/// Materialize's `lpad` (`pad_leading`): the first `length` characters of
/// `s`, or `s` after as many characters of `fill`, repeated, as make it
/// `length` long (none when `fill` is empty).
fn lpad(s: &str, length: i32, fill: &str) -> Result<String, DataflowError> {
    let length =
        usize::try_from(length).map_err(|_| DataflowError::eval("length must be nonnegative"))?;
    if length > MAX_RESULT_BYTES {
        return Err(length_too_large());
    }
    let (chars, bytes) = s
        .chars()
        .take(length)
        .fold((0, 0), |(n, b), c| (n + 1, b + c.len_utf8()));
    if chars == length {
        return Ok(s[..bytes].to_string());
    }
    let mut padded: String = fill.chars().cycle().take(length - chars).collect();
    padded.push_str(s);
    Ok(padded)
}

/// Reached only by plans the planner did not type-check.
fn invalid(what: &str) -> DataflowError {
    DataflowError::eval(&format!("invalid call: {what}"))
}
