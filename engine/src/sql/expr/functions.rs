//! Scalar function calls: the real system's overloads of each function
//! the engine has (`OVERLOADS`, after its `sql/src/func.rs`), the one an
//! argument list resolves to (`overloads.rs`), and the functions its
//! planner rewrites into other expressions (`mod` is `%`, `nullif` a
//! CASE, `pg_typeof` a literal, `greatest` and `least` over one common
//! type, `concat` and `concat_ws` of any types). An overload the engine
//! does not implement is refused by name, as is every function not here.

use std::borrow::Cow;

use sqlparser::ast::{BinaryOperator, CaseWhen, Expr, Function, Value};

use super::call_syntax::{extract_unit, special_form};
use super::float_functions::{self, plan_argument, take_literal, NumericLiteral};
use super::overloads::{find_match, Overload, Param};
use super::typed::{binary, unify, Typed};
use super::{array, date_part, date_trunc, jsonb, list, range};
use super::{function_name, plain_args, walk, ExprContext};
use crate::eval::introduces_nulls;
use crate::plan::{BytesFunc, Func, ScalarExpr, TextFunc, TrimSide};
use crate::repr::array::ArrayElem;
use crate::repr::{quoted, unsupported, Datum, ScalarType};

use Param::{Bytes, Char, Int16, Int32, Int64, Range, Text};

const TEXT: ScalarType = ScalarType::Text;
const INT: ScalarType = ScalarType::Int32;
const BOOL: ScalarType = ScalarType::Bool;
const BYTEA: ScalarType = ScalarType::Bytes;
const BYTES_LENGTH: Func = Func::Bytes(BytesFunc::Length);
const TEXTS: ScalarType = ScalarType::Array(ArrayElem::Text);
const REGEXP_REPLACE: Func = Func::Text(TextFunc::RegexpReplace);
const REGEXP_MATCH: Func = Func::Text(TextFunc::RegexpMatch);
const REGEXP_SPLIT: Func = Func::Text(TextFunc::RegexpSplitToArray);
const STRING_TO_ARRAY: Func = Func::Text(TextFunc::StringToArray);

const fn trim(side: TrimSide) -> [Overload; 2] {
    [
        (&[Text], Some((Func::Trim(side), TEXT))),
        (&[Text, Text], Some((Func::Trim(side), TEXT))),
    ]
}

const LTRIM: [Overload; 2] = trim(TrimSide::Leading);
const RTRIM: [Overload; 2] = trim(TrimSide::Trailing);
const BTRIM: [Overload; 2] = trim(TrimSide::Both);
const SUBSTR: [Overload; 2] = [
    (&[Text, Int32], Some((Func::Substr, TEXT))),
    (&[Text, Int32, Int32], Some((Func::Substr, TEXT))),
];

/// The real system's overloads of the functions of `bytea` and its
/// digests (`md5` of a text among them).
fn bytes_overloads(name: &str) -> Option<&'static [Overload]> {
    Some(match name {
        "get_byte" => &[(
            &[Bytes, Int32],
            Some((Func::Bytes(BytesFunc::GetByte), INT)),
        )],
        "get_bit" => &[(&[Bytes, Int32], Some((Func::Bytes(BytesFunc::GetBit), INT)))],
        "encode" => &[(&[Bytes, Text], Some((Func::Bytes(BytesFunc::Encode), TEXT)))],
        "decode" => &[(&[Text, Text], Some((Func::Bytes(BytesFunc::Decode), BYTEA)))],
        "convert_from" => &[(
            &[Bytes, Text],
            Some((Func::Bytes(BytesFunc::ConvertFrom), TEXT)),
        )],
        "md5" => &[
            (&[Text], Some((Func::Bytes(BytesFunc::Md5), TEXT))),
            (&[Bytes], Some((Func::Bytes(BytesFunc::Md5), TEXT))),
        ],
        "digest" => &[
            (&[Text, Text], Some((Func::Bytes(BytesFunc::Digest), BYTEA))),
            (
                &[Bytes, Text],
                Some((Func::Bytes(BytesFunc::Digest), BYTEA)),
            ),
        ],
        "hmac" => &[
            (
                &[Text, Text, Text],
                Some((Func::Bytes(BytesFunc::Hmac), BYTEA)),
            ),
            (
                &[Bytes, Bytes, Text],
                Some((Func::Bytes(BytesFunc::Hmac), BYTEA)),
            ),
        ],
        "sha224" => &[(
            &[Bytes],
            Some((Func::Bytes(BytesFunc::Sha("sha224")), BYTEA)),
        )],
        "sha256" => &[(
            &[Bytes],
            Some((Func::Bytes(BytesFunc::Sha("sha256")), BYTEA)),
        )],
        "sha384" => &[(
            &[Bytes],
            Some((Func::Bytes(BytesFunc::Sha("sha384")), BYTEA)),
        )],
        "sha512" => &[(
            &[Bytes],
            Some((Func::Bytes(BytesFunc::Sha("sha512")), BYTEA)),
        )],
        _ => return None,
    })
}

/// The real system's overloads of each function resolved here.
fn overloads(name: &str) -> Option<&'static [Overload]> {
    Some(match name {
        "abs" => &[
            (&[Int16], Some((Func::AbsInt16, ScalarType::Int16))),
            (&[Int32], Some((Func::AbsInt32, INT))),
            (&[Int64], Some((Func::AbsInt64, ScalarType::Int64))),
            float_functions::ABS_NUMERIC,
            float_functions::ABS_REAL,
            float_functions::ABS_DOUBLE,
        ],
        "length" => &[
            (&[Bytes], Some((BYTES_LENGTH, INT))),
            (&[Text], Some((Func::CharLength, INT))),
            (&[Bytes, Text], None),
        ],
        "char_length" => &[(&[Text], Some((Func::CharLength, INT)))],
        "octet_length" => &[
            (&[Bytes], Some((BYTES_LENGTH, INT))),
            (&[Text], Some((Func::OctetLength, INT))),
            (&[Char], None),
        ],
        "bit_length" => &[
            (&[Bytes], Some((Func::Bytes(BytesFunc::BitLength), INT))),
            (&[Text], Some((Func::BitLength, INT))),
        ],
        "substr" | "substring" => &SUBSTR,
        "upper" => &[(&[Text], Some((Func::Upper, TEXT))), (&[Range], None)],
        "lower" => &[(&[Text], Some((Func::Lower, TEXT))), (&[Range], None)],
        "position" => &[(&[Text, Text], Some((Func::Position, INT)))],
        "strpos" => &[(&[Text, Text], Some((Func::Strpos, INT)))],
        "replace" => &[(&[Text, Text, Text], Some((Func::Replace, TEXT)))],
        "left" => &[(&[Text, Int32], Some((Func::Left, TEXT)))],
        "right" => &[(&[Text, Int32], Some((Func::Right, TEXT)))],
        "ltrim" => &LTRIM,
        "rtrim" => &RTRIM,
        "btrim" => &BTRIM,
        "repeat" => &[(&[Text, Int32], Some((Func::Repeat, TEXT)))],
        "reverse" => &[(&[Text], Some((Func::Reverse, TEXT)))],
        "chr" => &[(&[Int32], Some((Func::Chr, TEXT)))],
        "lpad" => &[
            (&[Text, Int32], Some((Func::Lpad, TEXT))),
            (&[Text, Int32, Text], Some((Func::Lpad, TEXT))),
        ],
        "quote_ident" => &[(&[Text], Some((Func::Text(TextFunc::QuoteIdent), TEXT)))],
        "translate" => &[(
            &[Text, Text, Text],
            Some((Func::Text(TextFunc::Translate), TEXT)),
        )],
        "split_part" => &[(
            &[Text, Text, Int32],
            Some((Func::Text(TextFunc::SplitPart), TEXT)),
        )],
        "ascii" => &[(&[Text], Some((Func::Text(TextFunc::Ascii), INT)))],
        "initcap" => &[(&[Text], Some((Func::Text(TextFunc::Initcap), TEXT)))],
        "starts_with" => &[(
            &[Text, Text],
            Some((Func::Text(TextFunc::StartsWith), BOOL)),
        )],
        "normalize" => &[(&[Text, Text], Some((Func::Text(TextFunc::Normalize), TEXT)))],
        "try_parse_monotonic_iso8601_timestamp" => &[(
            &[Text],
            Some((
                Func::Text(TextFunc::TryParseMonotonicIso8601Timestamp),
                ScalarType::Timestamp,
            )),
        )],
        "regexp_replace" => &[
            (&[Text, Text, Text], Some((REGEXP_REPLACE, TEXT))),
            (&[Text, Text, Text, Text], Some((REGEXP_REPLACE, TEXT))),
        ],
        "regexp_match" => &[
            (&[Text, Text], Some((REGEXP_MATCH, TEXTS))),
            (&[Text, Text, Text], Some((REGEXP_MATCH, TEXTS))),
        ],
        "regexp_split_to_array" => &[
            (&[Text, Text], Some((REGEXP_SPLIT, TEXTS))),
            (&[Text, Text, Text], Some((REGEXP_SPLIT, TEXTS))),
        ],
        "string_to_array" => &[
            (&[Text, Text], Some((STRING_TO_ARRAY, TEXTS))),
            (&[Text, Text, Text], Some((STRING_TO_ARRAY, TEXTS))),
        ],
        _ => return bytes_overloads(name).or_else(|| float_functions::overloads(name)),
    })
}

/// The functions planned here rather than resolved from `OVERLOADS`.
const REWRITTEN: &[&str] = &[
    "mod",
    "nullif",
    "pg_typeof",
    "greatest",
    "least",
    "concat",
    "concat_ws",
];

/// Whether `name` is a scalar function the engine plans.
pub fn is_scalar_function(name: &str) -> bool {
    REWRITTEN.contains(&name)
        || overloads(name).is_some()
        || range::is_range_function(name)
        || jsonb::is_jsonb_function(name)
        || array::is_array_function(name)
        || list::is_list_function(name)
        || matches!(name, "date_trunc" | "date_part")
}

impl ExprContext<'_> {
    /// A call of one of the functions [`is_scalar_function`] names.
    #[inline(never)]
    pub(super) fn function(&mut self, f: &Function) -> Result<Typed, String> {
        let name = function_name(f);
        // The real system's parser takes `position` only as `POSITION(a
        // IN b)`: `position(a, b)` is its syntax error.
        if name == "position" {
            return Err(unsupported(format!("syntax: {f}")));
        }
        let args = plain_args(f)?;
        self.call(&name, &args)
    }

    /// `SUBSTRING(x FROM a FOR b)`, `POSITION(a IN b)`, `TRIM(...)`: the
    /// SQL syntax of a call, planned as the call.
    #[inline(never)]
    pub(super) fn special_call(&mut self, e: &Expr) -> Result<Typed, String> {
        let (name, args) = special_form(e)?;
        if let Some(unit) = extract_unit(e) {
            // `EXTRACT(unit FROM x)` is `extract('unit', x)`.
            let unit = Typed::new(ScalarExpr::Literal(Datum::Text(unit)), TEXT, false);
            let value = self.plan(args[0])?;
            return date_part::plan_call(name, vec![unit, value]);
        }
        self.call(name, &args)
    }

    /// `name(args)`, for a call written either way (`substring(x FROM 2)`
    /// is `substring(x, 2)`).
    pub(super) fn call(&mut self, name: &str, args: &[&Expr]) -> Result<Typed, String> {
        match (name, args) {
            // The real system's planner rewrites `mod(a, b)` to `a % b`.
            ("mod", [a, b]) => {
                let (a, b) = (self.plan(a)?, self.plan(b)?);
                binary(&BinaryOperator::Modulo, a, b)
            }
            ("nullif", [a, b]) => self.nullif(a, b),
            ("pg_typeof", [arg]) => self.pg_typeof(arg),
            ("greatest" | "least", [_, ..]) => self.extreme(name, args),
            ("concat" | "concat_ws", _) => self.concat(name, args),
            // The real system's planner rewrites `pow(a, b)` to `power(a, b)`.
            ("pow", [_, _]) => self.call("power", args),
            ("normalize", [text]) => self.normalize(text, "NFC"),
            ("normalize", [text, form]) => self.normalize(text, normalization_form(form)?),
            // The real system parses these with their own syntax, which
            // takes no other number of arguments.
            ("nullif" | "greatest" | "least" | "normalize", _) => Err(unsupported(format!(
                "syntax: {name} of {} arguments",
                args.len()
            ))),
            ("mod" | "pg_typeof", _) => {
                let planned = self.plan_all(args.iter().copied())?;
                let types: Vec<Option<ScalarType>> = planned.iter().map(argument_type).collect();
                Err(no_function(name, &types))
            }
            _ => {
                let (mut planned, mut literals) = (Vec::new(), Vec::new());
                for arg in args {
                    let (t, literal) = plan_argument(arg, |e| self.plan(e))?;
                    planned.push(t);
                    literals.push(literal);
                }
                if jsonb::is_jsonb_function(name) {
                    return jsonb::plan_call(name, planned);
                }
                if array::is_array_function(name) {
                    return array::plan_call(name, planned);
                }
                if list::is_list_function(name) {
                    return list::plan_call(name, planned);
                }
                match name {
                    "date_trunc" => return date_trunc::plan_call(planned),
                    "date_part" => return date_part::plan_call(name, planned),
                    _ => {}
                }
                if range::takes(name, &planned) {
                    refuse_unsigned(name, &planned)?;
                    return range::plan_call(name, planned);
                }
                resolve(name, planned, literals)
            }
        }
    }

    /// `normalize(text[, form])`: the real system's parser makes the form
    /// a string argument, `NFC` when there is none.
    fn normalize(&mut self, text: &Expr, form: &str) -> Result<Typed, String> {
        let form = Typed::new(ScalarExpr::Literal(Datum::Text(form.into())), TEXT, false);
        let (text, literal) = plan_argument(text, |e| self.plan(e))?;
        resolve("normalize", vec![text, form], vec![literal, None])
    }

    /// `NULLIF(a, b)` is `CASE WHEN a = b THEN NULL ELSE a END`, as the
    /// real system plans it: `a` is planned, and evaluated, twice.
    fn nullif(&mut self, a: &Expr, b: &Expr) -> Result<Typed, String> {
        let equal = Expr::BinaryOp {
            left: Box::new(a.clone()),
            op: BinaryOperator::Eq,
            right: Box::new(b.clone()),
        };
        let null = Expr::Value(Value::Null.with_empty_span());
        let when = CaseWhen {
            condition: equal,
            result: null,
        };
        self.case(None, &[when], Some(a))
    }

    /// `pg_typeof(x)`: the name of `x`'s type before any coercion, as a
    /// text (`unknown` for a NULL or a string literal); `x` is planned,
    /// never evaluated.
    fn pg_typeof(&mut self, arg: &Expr) -> Result<Typed, String> {
        // A subquery planned here would still be joined in, its errors
        // computed, where the real system drops it with the argument.
        if walk::contains_subquery(arg) {
            return Err(unsupported("function pg_typeof: of a subquery"));
        }
        let t = self.plan(arg)?;
        let name = match t.typ {
            _ if t.is_unknown() => "unknown".into(),
            Some(t) if t.chars().is_some() => {
                return Err(unsupported(format!("function pg_typeof: of {}", t.name())))
            }
            Some(t @ ScalarType::List(_)) => t.name(),
            Some(t) => t.base_name().into(),
            None => "unknown".into(),
        };
        Ok(Typed::new(
            ScalarExpr::Literal(Datum::Text(name.into_owned())),
            TEXT,
            false,
        ))
    }

    /// `greatest(...)` or `least(...)`, of its arguments given one type as
    /// COALESCE's are (`greatest types integer and text cannot be matched`;
    /// a `numeric` beside another type is refused).
    fn extreme(&mut self, name: &str, args: &[&Expr]) -> Result<Typed, String> {
        let planned = self.plan_all(args.iter().copied())?;
        refuse_unmodelled(name, &planned)?;
        let args = unify(planned, name)?;
        let typ = args[0].typ;
        // The real system's type: nullable if any argument is.
        let nullable = args.iter().any(|a| a.nullable);
        let func = match name {
            "greatest" => Func::Greatest,
            _ => Func::Least,
        };
        let expr = ScalarExpr::Call(func, args.into_iter().map(|a| a.expr).collect());
        Ok(Typed {
            expr,
            typ,
            nullable,
        })
    }

    /// `concat(...)` of any values, as text, never NULL; `concat_ws(sep,
    /// ...)`, NULL only when its separator (a text) is.
    fn concat(&mut self, name: &str, args: &[&Expr]) -> Result<Typed, String> {
        let mut planned = self.plan_all(args.iter().copied())?;
        refuse_unmodelled(name, &planned)?;
        let types: Vec<Option<ScalarType>> = planned.iter().map(argument_type).collect();
        // `concat(any, ...)` takes one argument or more; `concat_ws(text,
        // any, ...)` two or more, its separator a `text`.
        let taken = match name {
            "concat" => !types.is_empty(),
            _ => types.len() >= 2 && find_match(&types[..1], &[&[Text]]).is_ok(),
        };
        if !taken {
            return Err(no_function(name, &types));
        }
        let nullable = name == "concat_ws" && planned[0].nullable;
        planned = planned
            .into_iter()
            .map(|a| a.coerce(TEXT))
            .collect::<Result<_, _>>()?;
        let func = match name {
            "concat" => Func::Concat,
            _ => Func::ConcatWs,
        };
        let expr = ScalarExpr::Call(func, planned.into_iter().map(|a| a.expr).collect());
        Ok(Typed::new(expr, TEXT, nullable))
    }
}

/// The form of `normalize(text, form)`: the real system's parser takes one
/// of four keywords there and fails on anything else with its error, here
/// for a string or a quoted name; another word is refused, as which of
/// them are the real system's keywords (shown otherwise) is not known here.
fn normalization_form(form: &Expr) -> Result<&'static str, String> {
    const FORMS: [&str; 4] = ["NFC", "NFD", "NFKC", "NFKD"];
    let expected = "Expected one of NFC or NFD or NFKC or NFKD, found";
    match form {
        Expr::Identifier(id) if id.quote_style.is_none() => FORMS
            .into_iter()
            .find(|f| f.eq_ignore_ascii_case(&id.value))
            .ok_or_else(|| unsupported(format!("normalization form {}", id.value))),
        Expr::Identifier(id) if id.quote_style == Some('"') => {
            Err(format!("{expected} identifier {}", quoted(&id.value)))
        }
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) => Err(format!("{expected} string literal {}", quoted(s))),
            _ => Err(unsupported(format!("normalization form {form}"))),
        },
        _ => Err(unsupported(format!("normalization form {form}"))),
    }
}

/// `name(args)` resolved among its overloads: the error texts are the
/// real system's; an overload the engine lacks is refused by name. An
/// argument that is a numeric literal (`literals`) is read as the float
/// the chosen overload takes, and otherwise refused as before.
fn resolve(
    name: &str,
    args: Vec<Typed>,
    literals: Vec<Option<NumericLiteral>>,
) -> Result<Typed, String> {
    refuse_unmodelled(name, &args)?;
    let literal_refusal = literals
        .iter()
        .flatten()
        .next()
        .map(NumericLiteral::refusal);
    let resolved = choose(name, &args);
    let (params, func, result) = match (resolved, literal_refusal) {
        (Ok(chosen), _) => chosen,
        (Err(_), Some(refusal)) => return Err(refusal),
        (Err(e), None) => return Err(e),
    };
    let nullable = args.iter().any(|a| a.nullable) || introduces_nulls(func);
    let mut exprs = Vec::with_capacity(args.len());
    for ((arg, literal), param) in args.into_iter().zip(literals).zip(params.iter()) {
        let arg = match literal {
            Some(literal) => take_literal(literal, *param)?,
            None => arg,
        };
        let to = param.scalar_type().expect("an implemented overload's type");
        exprs.push(arg.coerce(to)?.cast(to).expr);
    }
    Ok(Typed::new(ScalarExpr::Call(func, exprs), result, nullable))
}

/// The implemented overload `name(args)` resolves to: its parameters,
/// function and result type.
fn choose(name: &str, args: &[Typed]) -> Result<(&'static [Param], Func, ScalarType), String> {
    let overloads = overloads(name).expect("a function with overloads");
    let types: Vec<Option<ScalarType>> = args.iter().map(argument_type).collect();
    let lists: Vec<&[Param]> = overloads.iter().map(|(params, _)| *params).collect();
    let chosen = match find_match(&types, &lists) {
        Ok(i) => &overloads[i],
        Err(0) => return Err(no_function(name, &types)),
        Err(_) => {
            let names: Vec<Cow<str>> = types.iter().map(|t| type_name(*t)).collect();
            return Err(format!(
                "function {name}({}) is not unique",
                names.join(", ")
            ));
        }
    };
    let (params, Some((func, result))) = chosen else {
        let names: Vec<&str> = chosen.0.iter().map(|p| p.name()).collect();
        return Err(unsupported(format!(
            "function {name}: {name}({})",
            names.join(", ")
        )));
    };
    Ok((params, *func, *result))
}

/// An argument's type for resolution: `None` for a NULL or string literal.
fn argument_type(t: &Typed) -> Option<ScalarType> {
    match t.is_unknown() {
        true => None,
        false => t.typ,
    }
}

/// A type's name in a function's signature: without its length, a list
/// type's with its element type's (`text list`).
fn type_name(t: Option<ScalarType>) -> Cow<'static, str> {
    match t {
        Some(t @ ScalarType::List(_)) => t.name(),
        t => t.map_or("unknown", ScalarType::base_name).into(),
    }
}

/// The refusal of a call of `name` with an argument of a type whose
/// overloads and conversions the function table does not model (the
/// string types `char` and `varchar`, which Materialize converts to `text`
/// with rules of their own, the floats, but for the functions whose
/// float overloads `float_functions` has, and the unsigned integers,
/// which Materialize casts implicitly to other numbers in ways the table
/// does not model).
fn refuse_unmodelled(name: &str, args: &[Typed]) -> Result<(), String> {
    let floats = float_functions::takes_floats(name) || matches!(name, "greatest" | "least");
    // An array's and a list's SQL order is not its derived order, which
    // `greatest` and `least` take.
    let array = |t: &ScalarType| matches!(t, ScalarType::Array(_) | ScalarType::List(_));
    let unmodelled = |t: &ScalarType| t.chars().is_some() || (t.is_float() && !floats) || array(t);
    refuse_unsigned(name, args)?;
    match args.iter().find_map(|a| a.typ.filter(unmodelled)) {
        Some(t) => Err(unsupported(format!("function {name} of {}", t.name()))),
        None => Ok(()),
    }
}

/// The refusal of a call of `name` with an unsigned integer argument.
fn refuse_unsigned(name: &str, args: &[Typed]) -> Result<(), String> {
    match args.iter().find_map(|a| a.typ.filter(|t| t.is_unsigned())) {
        Some(t) => Err(unsupported(format!("function {name} of {}", t.name()))),
        None => Ok(()),
    }
}

/// The real system's text for a call no overload takes.
fn no_function(name: &str, types: &[Option<ScalarType>]) -> String {
    let names: Vec<Cow<str>> = types.iter().map(|t| type_name(*t)).collect();
    format!("function {name}({}) does not exist", names.join(", "))
}
