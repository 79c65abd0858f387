//! The functions, operators and casts of `jsonb`, as the real system
//! evaluates them (its `expr/src/scalar/func.rs` and
//! `func/impls/jsonb.rs`, read for the facts). Where it answers otherwise
//! than PostgreSQL (`-` of a scalar is NULL, `jsonb_array_length` of a
//! non-array is NULL, `||` of two scalars is NULL, `jsonb_each` of a
//! non-object no rows), its answer is given.

use crate::plan::{JsonbFunc, TableFunc};
use crate::repr::jsonb::{Jsonb, Pretty};
use crate::repr::{DataflowError, Datum, Row, ScalarType};

/// The types a `jsonb` casts to besides the strings: those of its numbers
/// and its booleans.
pub fn castable_to(to: ScalarType) -> bool {
    use ScalarType::*;
    matches!(
        to,
        Int16 | Int32 | Int64 | Float32 | Float64 | Numeric | NumericScale(_) | Bool
    )
}

/// What a cast of a `jsonb` to another type converts (`None` when `d` is
/// not one, or `to` is `jsonb`): to a string its text, to a number type
/// its number, to `boolean` its boolean; any other kind of value
/// `cannot cast jsonb <kind> to type <type>`. `cast` converts it on.
pub fn cast_source(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    let Datum::Jsonb(j) = d else {
        return None;
    };
    let wrong = || {
        format!(
            "cannot cast jsonb {} to type {}",
            j.type_name(),
            to.base_name()
        )
    };
    Some(match (&**j, to) {
        (_, ScalarType::Jsonb) => return None,
        (_, to) if to.is_string() => Ok(Datum::Text(j.to_string())),
        (Jsonb::Number(n), to) if to != ScalarType::Bool && castable_to(to) => {
            Ok(Datum::Numeric(*n))
        }
        (Jsonb::Bool(b), ScalarType::Bool) => Ok(Datum::Bool(*b)),
        _ => Err(wrong()),
    })
}

fn jsonb(j: Jsonb) -> Datum {
    Datum::Jsonb(Box::new(j))
}

fn found(j: Option<&Jsonb>) -> Datum {
    j.map_or(Datum::Null, |j| jsonb(j.clone()))
}

fn found_text(j: Option<&Jsonb>) -> Datum {
    j.and_then(Jsonb::as_text).map_or(Datum::Null, Datum::Text)
}

/// A strict function of `jsonb` of non-NULL arguments; `None` for
/// arguments of other types (a plan not type-checked).
pub fn apply(f: JsonbFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    use JsonbFunc as F;
    let index = |d: &Datum| match d {
        Datum::Int64(i) => Some(*i),
        Datum::Int32(i) => Some(i64::from(*i)),
        _ => None,
    };
    let result = match (f, args) {
        (F::GetField, [Datum::Jsonb(j), Datum::Text(k)]) => found(j.field(k)),
        (F::GetFieldText, [Datum::Jsonb(j), Datum::Text(k)]) => found_text(j.field(k)),
        (F::GetElement, [Datum::Jsonb(j), i]) => found(j.element(index(i)?)),
        (F::GetElementText, [Datum::Jsonb(j), i]) => found_text(j.element(index(i)?)),
        (F::Contains, [Datum::Jsonb(a), Datum::Jsonb(b)]) => Datum::Bool(contains(a, b, true)),
        (F::HasKey, [Datum::Jsonb(j), Datum::Text(k)]) => Datum::Bool(has_key(j, k)),
        (F::Concat, [Datum::Jsonb(a), Datum::Jsonb(b)]) => concat(a, b).map_or(Datum::Null, jsonb),
        (F::DeleteKey, [Datum::Jsonb(j), Datum::Text(k)]) => match &**j {
            Jsonb::Array(elements) => {
                let kept = elements
                    .iter()
                    .filter(|e| !matches!(e, Jsonb::String(s) if s == k));
                jsonb(Jsonb::Array(kept.cloned().collect()))
            }
            Jsonb::Object(entries) => {
                let kept = entries.iter().filter(|(key, _)| key != k);
                jsonb(Jsonb::Object(kept.cloned().collect()))
            }
            _ => Datum::Null,
        },
        (F::DeleteElement, [Datum::Jsonb(j), i]) => match &**j {
            Jsonb::Array(elements) => {
                let i = index(i)?;
                let len = i64::try_from(elements.len()).unwrap_or(i64::MAX);
                let at = if i < 0 { len + i } else { i };
                let kept = elements.iter().enumerate();
                let kept = kept.filter(|(n, _)| i64::try_from(*n).ok() != Some(at));
                jsonb(Jsonb::Array(kept.map(|(_, e)| e.clone()).collect()))
            }
            _ => Datum::Null,
        },
        (F::GetPath, [Datum::Jsonb(j), path @ ..]) => found(get_path(j, path)),
        (F::TypeOf, [Datum::Jsonb(j)]) => Datum::Text(j.type_name().to_string()),
        (F::ArrayLength, [Datum::Jsonb(j)]) => match &**j {
            Jsonb::Array(elements) => match i32::try_from(elements.len()) {
                Ok(len) => Datum::Int32(len),
                Err(_) => {
                    let text = format!("\"{}\" integer out of range", elements.len());
                    return Some(Err(DataflowError::eval(&text)));
                }
            },
            _ => Datum::Null,
        },
        (F::StripNulls, [Datum::Jsonb(j)]) => jsonb(strip_nulls(j)),
        (F::Pretty, [Datum::Jsonb(j)]) => Datum::Text(Pretty(j).to_string()),
        _ => return None,
    };
    Some(Ok(result))
}

/// `j #> path` as the real system's `jsonb_get_path`: each key an
/// object's field, or an array's element at the key read as a `bigint`
/// (blanks trimmed, a negative one from the end); a scalar has none.
fn get_path<'a>(mut j: &'a Jsonb, path: &[Datum]) -> Option<&'a Jsonb> {
    for key in path {
        let Datum::Text(key) = key else {
            return None;
        };
        j = match j {
            Jsonb::Object(_) => j.field(key)?,
            Jsonb::Array(elements) => {
                let i: i64 = key.trim().parse().ok()?;
                let at = match usize::try_from(i) {
                    Ok(at) => at,
                    Err(_) => elements
                        .len()
                        .checked_sub(usize::try_from(i.unsigned_abs()).ok()?)?,
                };
                elements.get(at)?
            }
            _ => return None,
        };
    }
    Some(j)
}

/// Whether `a` contains `b` (PostgreSQL's containment, as the real system
/// has it): scalars equal, every element of an array `b` contained in some
/// element of `a`, every entry of an object `b` in `a` under its key, and
/// at the top only, a scalar in an array that has it.
fn contains(a: &Jsonb, b: &Jsonb, top: bool) -> bool {
    match (a, b) {
        (Jsonb::Array(a), Jsonb::Array(b)) => {
            b.iter().all(|b| a.iter().any(|a| contains(a, b, false)))
        }
        (Jsonb::Object(_), Jsonb::Object(b)) => b
            .iter()
            .all(|(k, b)| a.field(k).is_some_and(|a| contains(a, b, false))),
        (Jsonb::Array(a), b) => top && a.iter().any(|a| contains(a, b, false)),
        (Jsonb::Object(_), _) | (_, Jsonb::Array(_) | Jsonb::Object(_)) => false,
        (a, b) => a == b,
    }
}

/// `j ? k`: an object's key, an array's string element, a string itself.
fn has_key(j: &Jsonb, k: &str) -> bool {
    match j {
        Jsonb::Array(elements) => elements
            .iter()
            .any(|e| matches!(e, Jsonb::String(s) if s == k)),
        Jsonb::Object(_) => j.field(k).is_some(),
        Jsonb::String(s) => s == k,
        _ => false,
    }
}

/// `a || b`: objects merged (`b`'s value where both have a key), arrays
/// appended, a scalar beside an array appended to it; else NULL.
fn concat(a: &Jsonb, b: &Jsonb) -> Option<Jsonb> {
    Some(match (a, b) {
        (Jsonb::Object(x), Jsonb::Object(y)) => {
            Jsonb::object(x.iter().chain(y.iter()).cloned().collect())
        }
        (Jsonb::Array(x), Jsonb::Array(y)) => Jsonb::Array(x.iter().chain(y).cloned().collect()),
        (Jsonb::Array(x), b) => Jsonb::Array(x.iter().chain([b]).cloned().collect()),
        (a, Jsonb::Array(y)) => Jsonb::Array([a].into_iter().chain(y).cloned().collect()),
        _ => return None,
    })
}

/// `jsonb_strip_nulls`: every object entry whose value is `null` dropped,
/// at every depth (an array's `null`s kept).
fn strip_nulls(j: &Jsonb) -> Jsonb {
    match j {
        Jsonb::Object(entries) => Jsonb::Object(
            entries
                .iter()
                .filter(|(_, v)| *v != Jsonb::Null)
                .map(|(k, v)| (k.clone(), strip_nulls(v)))
                .collect(),
        ),
        Jsonb::Array(elements) => Jsonb::Array(elements.iter().map(strip_nulls).collect()),
        other => other.clone(),
    }
}

/// The rows of a jsonb table function of `j`, as the real system's
/// `jsonb_each` and its siblings (`expr/src/relation/func.rs`) give them:
/// an object's entries in key order, an array's elements in order, and
/// no rows for any other kind of value (PostgreSQL's error). The text
/// forms make each value `->>`'s text, `null` a NULL.
pub fn table_rows(f: &TableFunc, j: &Jsonb) -> Vec<Row> {
    let text = |v: &Jsonb| found_text(Some(v));
    let key = |k: &String| Datum::Text(k.clone());
    let no_entries = Vec::new();
    let entries = match j {
        Jsonb::Object(entries) => entries,
        _ => &no_entries,
    };
    let elements = match j {
        Jsonb::Array(elements) => elements.as_slice(),
        _ => &[],
    };
    match f {
        TableFunc::JsonbEach => entries
            .iter()
            .map(|(k, v)| vec![key(k), jsonb(v.clone())])
            .collect(),
        TableFunc::JsonbEachText => entries.iter().map(|(k, v)| vec![key(k), text(v)]).collect(),
        TableFunc::JsonbObjectKeys => entries.iter().map(|(k, _)| vec![key(k)]).collect(),
        TableFunc::JsonbArrayElements => elements.iter().map(|e| vec![jsonb(e.clone())]).collect(),
        TableFunc::JsonbArrayElementsText => elements.iter().map(|e| vec![text(e)]).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reads_keys_as_indexes_of_arrays_and_stops_at_scalars() {
        let j = crate::repr::jsonb::parse(r#"{"a": [10, {"b": true}]}"#).unwrap();
        let path = |keys: &[&str]| {
            let keys: Vec<Datum> = keys.iter().map(|k| Datum::Text(k.to_string())).collect();
            get_path(&j, &keys).map(Jsonb::to_string)
        };
        assert_eq!(path(&["a", " 1 ", "b"]), Some("true".into()));
        assert_eq!(path(&["a", "-2"]), Some("10".into()));
        assert_eq!(path(&["a", "-3"]), None);
        assert_eq!(path(&["a", "-9223372036854775808"]), None);
        assert_eq!(path(&["a", "0", "0"]), None);
        assert_eq!(path(&["a", "x"]), None);
        assert_eq!(get_path(&j, &[Datum::Null]), None);
    }
}
