//! Calls of the `jsonb` functions of one jsonb argument, as the real
//! system's overloads have them (`sql/src/func.rs`, read for the facts):
//! `jsonb_typeof` (a text), `jsonb_array_length` (an integer, NULL but for
//! an array), `jsonb_strip_nulls` (a jsonb) and `jsonb_pretty` (a text).
//! An argument of unknown type is read as a jsonb; another type is the
//! function's `does not exist`.
//!
//! `to_jsonb`, `jsonb_build_array` and `jsonb_build_object` take values
//! of any type but `char`.
//!
//! The table functions `jsonb_each`, `jsonb_each_text`,
//! `jsonb_object_keys`, `jsonb_array_elements` and
//! `jsonb_array_elements_text` are planned here as their `TableFunc`,
//! with the real system's column names and types.

use super::range::no_function;
use super::typed::jsonb::{call, is_jsonb, path_key};
use super::typed::Typed;
use crate::plan::{Func, JsonbFunc, ScalarExpr, TableFunc};
use crate::repr::{self, unsupported, Column, Datum, ScalarType};

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

/// The functions of values of any type that make a jsonb.
const BUILDERS: &[(&str, JsonbFunc)] = &[
    ("to_jsonb", JsonbFunc::From),
    ("jsonb_build_array", JsonbFunc::BuildArray),
    ("jsonb_build_object", JsonbFunc::BuildObject),
];

/// Whether `name` is a jsonb function planned here.
pub fn is_jsonb_function(name: &str) -> bool {
    FUNCTIONS.iter().any(|(n, _, _)| *n == name) || BUILDERS.iter().any(|(n, _)| *n == name)
}

/// `name(args)`, for a `name` [`is_jsonb_function`] takes.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    if let Some(&(_, func)) = BUILDERS.iter().find(|(n, _)| *n == name) {
        return build(name, func, args);
    }
    let &(_, func, typ) = FUNCTIONS
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("a jsonb function");
    let arg = one_jsonb(name, args)?;
    let mut planned = call(func, vec![arg], typ);
    planned.nullable |= func == JsonbFunc::ArrayLength;
    Ok(planned)
}

/// `to_jsonb(x)`, `jsonb_build_array(x, ...)` or
/// `jsonb_build_object(k, v, ...)`, as the real system's `func.rs` plans
/// them: a value of unknown type is a `text` (its `type_as_any`), a key
/// is cast to `text` (`typeconv::to_string`), and `eval/to_jsonb.rs`
/// converts each value by its kind. A `char` is refused by name: the real
/// system pads it first, a conversion not made here.
fn build(name: &str, func: JsonbFunc, args: Vec<Typed>) -> Result<Typed, String> {
    if func == JsonbFunc::From && args.len() != 1 {
        return Err(no_function(name, &args));
    }
    if func == JsonbFunc::BuildObject && !args.len().is_multiple_of(2) {
        return Err("argument list must have even number of elements".into());
    }
    let mut planned = Vec::with_capacity(args.len());
    for (i, arg) in args.into_iter().enumerate() {
        let arg = any_value(name, arg)?;
        let key = func == JsonbFunc::BuildObject && i % 2 == 0;
        planned.push(match key {
            true => arg.cast(ScalarType::Text),
            false => arg,
        });
    }
    let mut built = call(func, planned, ScalarType::Jsonb);
    built.nullable &= func == JsonbFunc::From;
    Ok(built)
}

/// `j[k1][k2]...`, planned as Materialize plans it: `j #> ARRAY[k1, k2,
/// ...]` of the keys as texts (`JsonbFunc::GetPath`).
pub fn subscript(root: Typed, keys: Vec<Typed>) -> Result<Typed, String> {
    let keys = keys.into_iter().map(path_key);
    let exprs = std::iter::once(Ok(root.expr)).chain(keys);
    let exprs = exprs.collect::<Result<Vec<_>, String>>()?;
    let path = ScalarExpr::Call(Func::Jsonb(JsonbFunc::GetPath), exprs);
    Ok(Typed::new(path, ScalarType::Jsonb, true))
}

/// A value of `jsonb_agg` or `jsonb_object_agg`, as Materialize's
/// `func.rs` plans it: `coalesce(to_jsonb(x), 'null')`, a value of
/// unknown type a text, a `char` refused as `to_jsonb`'s.
pub fn aggregated_value(name: &str, x: Typed) -> Result<Typed, String> {
    let x = any_value(name, x)?;
    let json_null = ScalarExpr::Literal(Datum::Jsonb(Box::new(repr::jsonb::Jsonb::Null)));
    let converted = ScalarExpr::Call(Func::Jsonb(JsonbFunc::From), vec![x.expr]);
    let value = ScalarExpr::Coalesce(vec![converted, json_null]);
    Ok(Typed::new(value, ScalarType::Jsonb, false))
}

/// A key of `jsonb_object_agg`: cast to a text (`typeconv::to_string`).
pub fn aggregated_key(name: &str, key: Typed) -> Result<Typed, String> {
    Ok(any_value(name, key)?.cast(ScalarType::Text))
}

/// An argument of a function of any type making a jsonb: one of unknown
/// type a text (Materialize's `type_as_any`), a `char` refused.
fn any_value(name: &str, arg: Typed) -> Result<Typed, String> {
    if matches!(arg.typ, Some(ScalarType::Char(_))) && !arg.is_unknown() {
        return Err(unsupported(format!("{name} of char")));
    }
    match arg.is_unknown() {
        true => arg.coerce(ScalarType::Text),
        false => Ok(arg),
    }
}

/// The one argument of a function of one jsonb, an unknown read as one.
fn one_jsonb(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    match args.as_slice() {
        [a] if a.is_unknown() => a.clone().coerce(ScalarType::Jsonb),
        [a] if is_jsonb(a) => Ok(a.clone()),
        _ => Err(no_function(name, &args)),
    }
}

/// A column of a jsonb table function's rows.
fn column(name: &str, typ: ScalarType, nullable: bool) -> Column {
    let name = name.into();
    Column {
        name,
        typ,
        nullable,
    }
}

/// The jsonb table function `name`, with its columns as the real system's
/// `sql/src/func.rs` names them and `TableFunc::output_type` types them
/// (`None` for another name).
fn table_function(name: &str) -> Option<(TableFunc, Vec<Column>)> {
    use ScalarType::{Jsonb, Text};
    let key = || column("key", Text, false);
    Some(match name {
        "jsonb_each" => (
            TableFunc::JsonbEach,
            vec![key(), column("value", Jsonb, false)],
        ),
        "jsonb_each_text" => (
            TableFunc::JsonbEachText,
            vec![key(), column("value", Text, true)],
        ),
        "jsonb_object_keys" => (TableFunc::JsonbObjectKeys, vec![column(name, Text, false)]),
        "jsonb_array_elements" => (
            TableFunc::JsonbArrayElements,
            vec![column("value", Jsonb, false)],
        ),
        "jsonb_array_elements_text" => (
            TableFunc::JsonbArrayElementsText,
            vec![column("value", Text, true)],
        ),
        _ => return None,
    })
}

/// Whether `name` is a jsonb table function planned here.
pub fn is_jsonb_table_function(name: &str) -> bool {
    table_function(name).is_some()
}

/// The call `name(args)` of a jsonb table function: the function, its
/// one argument (an unknown read as a jsonb) and its columns.
pub fn plan_table_call(
    name: &str,
    args: Vec<Typed>,
) -> Result<(TableFunc, Vec<ScalarExpr>, Vec<Column>), String> {
    let (func, columns) = table_function(name).expect("a jsonb table function");
    let arg = one_jsonb(name, args)?;
    Ok((func, vec![arg.expr], columns))
}
