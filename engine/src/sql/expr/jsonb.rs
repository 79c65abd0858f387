//! Calls of the `jsonb` functions of one jsonb argument, as the real
//! system's overloads have them (`sql/src/func.rs`, read for the facts):
//! `jsonb_typeof` (a text), `jsonb_array_length` (an integer, NULL but for
//! an array), `jsonb_strip_nulls` (a jsonb) and `jsonb_pretty` (a text).
//! An argument of unknown type is read as a jsonb; another type is the
//! function's `does not exist`.

use super::range::no_function;
use super::typed::jsonb::{call, is_jsonb};
use super::typed::Typed;
use crate::plan::JsonbFunc;
use crate::repr::ScalarType;

/// The functions planned here.
const FUNCTIONS: &[(&str, JsonbFunc, ScalarType)] = &[
    ("jsonb_typeof", JsonbFunc::TypeOf, ScalarType::Text),
    (
        "jsonb_array_length",
        JsonbFunc::ArrayLength,
        ScalarType::Int32,
    ),
    (
        "jsonb_strip_nulls",
        JsonbFunc::StripNulls,
        ScalarType::Jsonb,
    ),
    ("jsonb_pretty", JsonbFunc::Pretty, ScalarType::Text),
];

/// Whether `name` is a jsonb function planned here.
pub fn is_jsonb_function(name: &str) -> bool {
    FUNCTIONS.iter().any(|(n, _, _)| *n == name)
}

/// `name(args)`, for a `name` [`is_jsonb_function`] takes.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let &(_, func, typ) = FUNCTIONS
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("a jsonb function");
    let arg = match args.as_slice() {
        [a] if a.is_unknown() => a.clone().coerce(ScalarType::Jsonb)?,
        [a] if is_jsonb(a) => a.clone(),
        _ => return Err(no_function(name, &args)),
    };
    let mut planned = call(func, vec![arg], typ);
    planned.nullable |= func == JsonbFunc::ArrayLength;
    Ok(planned)
}
