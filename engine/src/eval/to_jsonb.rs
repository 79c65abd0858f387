//! A datum made a `jsonb`, as the real system's planner converts one
//! (`typeconv::to_jsonb` in `sql/src/plan/typeconv.rs`, read for the
//! facts) and its `jsonb_build_array` and `jsonb_build_object`
//! (`expr/src/scalar/func/variadic.rs`) build one: a boolean a JSON
//! boolean, a number of any type a `numeric` (a float by its cast, so
//! an infinity is that cast's error), a `numeric` NaN the string `"NaN"`,
//! a `jsonb` itself, an array its elements nested by dimension, a list
//! its elements (a nested list a nested array), and any
//! other value the string of its text (a date, a time, a timestamp, an
//! interval, a range, a text). A NULL is SQL NULL of `to_jsonb`, JSON `null` inside
//! an array or as a built value.

use super::cast::cast;
use crate::plan::JsonbFunc;
use crate::repr::array::Array;
use crate::repr::jsonb::Jsonb;
use crate::repr::{DataflowError, Datum, ScalarType};

/// The real system's text for a NULL key (`EvalError::KeyCannotBeNull`).
const NULL_KEY: &str = "key cannot be null";

/// `d` as a jsonb value, a NULL the JSON `null`.
pub fn convert(d: &Datum) -> Result<Jsonb, DataflowError> {
    let via = |to: ScalarType| cast(d.clone(), to).map_err(|e| DataflowError::eval(&e));
    Ok(match d {
        Datum::Null => Jsonb::Null,
        Datum::Bool(b) => Jsonb::Bool(*b),
        Datum::Jsonb(j) => (**j).clone(),
        Datum::Numeric(n) if n.is_nan() => Jsonb::String("NaN".into()),
        Datum::Numeric(n) => Jsonb::Number(*n),
        Datum::Text(s) => Jsonb::String(s.clone()),
        Datum::Array(a) => nested(a, &a.elements, 0)?.0,
        Datum::List(l) => Jsonb::Array(l.iter().map(convert).collect::<Result<_, _>>()?),
        Datum::Int16(_)
        | Datum::Int32(_)
        | Datum::Int64(_)
        | Datum::UInt16(_)
        | Datum::UInt32(_)
        | Datum::UInt64(_)
        | Datum::Float32(_)
        | Datum::Float64(_) => convert(&via(ScalarType::Numeric)?)?,
        Datum::Date(_)
        | Datum::Time(_)
        | Datum::Timestamp(_)
        | Datum::TimestampTz(_)
        | Datum::Interval(_)
        | Datum::Range(_)
        | Datum::Bytes(_) => convert(&via(ScalarType::Text)?)?,
    })
}

/// The elements of dimension `dim` on from the start of `elements`, as
/// nested JSON arrays, and how many elements they took.
fn nested(a: &Array, elements: &[Datum], dim: usize) -> Result<(Jsonb, usize), DataflowError> {
    let Some(d) = a.dims.get(dim) else {
        return Ok((Jsonb::Array(Vec::new()), 0));
    };
    let mut values = Vec::with_capacity(d.length);
    let mut taken = 0;
    for _ in 0..d.length {
        if dim + 1 == a.dims.len() {
            values.push(convert(&elements[taken])?);
            taken += 1;
        } else {
            let (inner, n) = nested(a, &elements[taken..], dim + 1)?;
            values.push(inner);
            taken += n;
        }
    }
    Ok((Jsonb::Array(values), taken))
}

/// `to_jsonb(d)`, `jsonb_build_array(values)` and
/// `jsonb_build_object(key, value, ...)` of evaluated arguments; `None`
/// for another function. An object's keys (texts already) are sorted,
/// the first of a repeated key kept, as the real system's
/// `jsonb_build_object` sorts and dedups them; a NULL key is an error.
pub fn build(f: JsonbFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    let built = |j: Jsonb| Datum::Jsonb(Box::new(j));
    let result = match (f, args) {
        (JsonbFunc::From, [Datum::Null]) => Ok(Datum::Null),
        (JsonbFunc::From, [d]) => convert(d).map(built),
        (JsonbFunc::BuildArray, values) => values
            .iter()
            .map(convert)
            .collect::<Result<_, _>>()
            .map(|values| built(Jsonb::Array(values))),
        (JsonbFunc::BuildObject, pairs) => object(pairs).map(built),
        _ => return None,
    };
    Some(result)
}

/// The object of `pairs` of keys and values, as `jsonb_build_object`:
/// every value converted first, in order, as the real system evaluates
/// its arguments before the function.
fn object(pairs: &[Datum]) -> Result<Jsonb, DataflowError> {
    let mut entries = pairs
        .chunks(2)
        .map(|kv| Ok((&kv[0], convert(&kv[1])?)))
        .collect::<Result<Vec<_>, DataflowError>>()?;
    // Stable, so the first of a repeated key stays first and is kept.
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries.dedup_by(|later, first| later.0 == first.0);
    let mut object = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        let Datum::Text(k) = k else {
            return Err(DataflowError::eval(NULL_KEY));
        };
        object.push((k.clone(), v));
    }
    Ok(Jsonb::Object(object))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::jsonb::parse;

    fn text(s: &str) -> Datum {
        Datum::Text(s.into())
    }

    fn built(f: JsonbFunc, args: &[Datum]) -> Result<String, DataflowError> {
        build(f, args).unwrap().map(|d| d.to_string())
    }

    #[test]
    fn objects_keep_the_first_of_a_key_and_refuse_a_null_one() {
        let args = [text("b"), Datum::Int32(1), text("a"), Datum::Null];
        let args = [&args[..], &[text("b"), Datum::Bool(true)]].concat();
        let j = built(JsonbFunc::BuildObject, &args);
        assert_eq!(j, Ok(r#"{"a":null,"b":1}"#.to_string()));
        let null = built(JsonbFunc::BuildObject, &[Datum::Null, Datum::Int32(1)]);
        assert_eq!(null, Err(DataflowError::eval(NULL_KEY)));
        assert_eq!(built(JsonbFunc::BuildObject, &[]), Ok("{}".into()));
    }

    #[test]
    fn arrays_nest_by_dimension_and_nulls_are_json_nulls() {
        let elements = (1..=4).map(Datum::Int64).chain([Datum::Null, Datum::Null]);
        let a = Array::new(elements.collect(), &[3, 2]).unwrap();
        let j = convert(&Datum::Array(Box::new(a))).unwrap();
        assert_eq!(j, parse("[[1,2],[3,4],[null,null]]").unwrap());
        let empty = Array::new(Vec::new(), &[]).unwrap();
        assert_eq!(
            convert(&Datum::Array(Box::new(empty))),
            Ok(Jsonb::Array(vec![]))
        );
        assert_eq!(
            built(JsonbFunc::From, &[Datum::Null]),
            Ok(Datum::Null.to_string())
        );
    }
}
