//! The float functions' overloads, as the real system's `sql/src/func.rs`
//! lists them (`round`, `trunc`, `ceil`, `ceiling`, `floor`, `sqrt`,
//! `cbrt`, `exp`, `ln`, `log`, `log10`, `power`, `pow`; `abs` of a float
//! is beside `abs`'s other overloads), with their `numeric` overloads: the
//! rounding ones implemented (`NumericFunc`), the others named but not,
//! so that an argument resolves as it does there (`round(1)` is
//! `round(double precision)`, `round(1.5)` the `numeric` one) and an
//! overload the engine lacks is refused by name.
//!
//! A literal with a point or an exponent is a `numeric` there, and a
//! float where the overload chosen casts it to one (`power(f, 0.5)`); the
//! engine plans no `numeric` literal on its own, so an argument that is
//! one is resolved as a `numeric` and read as the chosen float here, and
//! refused as before wherever it would stay a `numeric`.

use sqlparser::ast::Expr;

use super::float::{float_literal, numeric_literal};
use super::overloads::Overload;
use super::overloads::Param::{self, Float32, Float64, Int32, Numeric};
use super::typed::Typed;
use crate::plan::{FloatFunc, FloatWidth, Func, NumericFunc, ScalarExpr};
use crate::repr::{Datum, ScalarType};

const F32: ScalarType = ScalarType::Float32;
const F64: ScalarType = ScalarType::Float64;

/// An implemented overload of a `real` (`W32`) or `double precision`
/// (`W64`), its function and result of that type.
macro_rules! float {
    (W32, $f:expr) => {
        Some((Func::Float($f), F32))
    };
    (W64, $f:expr) => {
        Some((Func::Float($f), F64))
    };
}

use FloatWidth::{F32 as W32, F64 as W64};

/// An implemented overload of a `numeric`, giving a `numeric`.
const fn numeric(f: NumericFunc) -> Option<(Func, ScalarType)> {
    Some((Func::Numeric(f), ScalarType::Numeric))
}

/// `round`, `trunc`, `ceil` and `floor`: of each float, keeping its
/// width, and of a `numeric`.
macro_rules! rounding {
    ($f:path, $n:expr) => {
        [
            (&[Float32], float!(W32, $f(W32))),
            (&[Float64], float!(W64, $f(W64))),
            (&[Numeric], numeric($n)),
        ]
    };
}

const TRUNC: [Overload; 3] = rounding!(FloatFunc::Trunc, NumericFunc::Trunc);
const CEIL: [Overload; 3] = rounding!(FloatFunc::Ceil, NumericFunc::Ceil);
const FLOOR: [Overload; 3] = rounding!(FloatFunc::Floor, NumericFunc::Floor);
const ROUND: [Overload; 4] = {
    let [a, b, c]: [Overload; 3] = rounding!(FloatFunc::Round, NumericFunc::Round);
    [a, b, c, (&[Numeric, Int32], numeric(NumericFunc::RoundTo))]
};
const SQRT: [Overload; 2] = [
    (&[Float64], float!(W64, FloatFunc::Sqrt)),
    (&[Numeric], numeric(NumericFunc::Sqrt)),
];
const CBRT: [Overload; 1] = [(&[Float64], float!(W64, FloatFunc::Cbrt))];
const EXP: [Overload; 2] = [
    (&[Float64], float!(W64, FloatFunc::Exp)),
    (&[Numeric], numeric(NumericFunc::Exp)),
];
const LN: [Overload; 2] = [
    (&[Float64], float!(W64, FloatFunc::Ln)),
    (&[Numeric], numeric(NumericFunc::Ln)),
];
const LOG10: [Overload; 2] = [
    (&[Float64], float!(W64, FloatFunc::Log10)),
    (&[Numeric], numeric(NumericFunc::Log10)),
];
const LOG: [Overload; 3] = [
    (&[Float64], float!(W64, FloatFunc::Log10)),
    (&[Numeric], numeric(NumericFunc::Log10)),
    (&[Numeric, Numeric], numeric(NumericFunc::LogBase)),
];
const POWER: [Overload; 2] = [
    (&[Float64, Float64], float!(W64, FloatFunc::Power)),
    (&[Numeric, Numeric], None),
];
// The real system's planner rewrites `pow(a, b)` to `power(a, b)`
// (`ExprContext::call`); any other number of arguments resolves here.
const POW: [Overload; 1] = [(&[Float64, Float64], float!(W64, FloatFunc::Power))];

/// The `abs` overloads of the floats and of a `numeric`.
pub const ABS_NUMERIC: Overload = (&[Numeric], numeric(NumericFunc::Abs));
pub const ABS_REAL: Overload = (&[Float32], float!(W32, FloatFunc::Abs(W32)));
pub const ABS_DOUBLE: Overload = (&[Float64], float!(W64, FloatFunc::Abs(W64)));

/// The overloads of a float function, `None` for any other name.
pub fn overloads(name: &str) -> Option<&'static [Overload]> {
    Some(match name {
        "round" => &ROUND,
        "trunc" => &TRUNC,
        "ceil" | "ceiling" => &CEIL,
        "floor" => &FLOOR,
        "sqrt" => &SQRT,
        "cbrt" => &CBRT,
        "exp" => &EXP,
        "ln" => &LN,
        "log10" => &LOG10,
        "log" => &LOG,
        "power" => &POWER,
        "pow" => &POW,
        _ => return None,
    })
}

/// Whether a call of `name` resolves among float overloads, so that a
/// float argument is not refused before resolution.
pub fn takes_floats(name: &str) -> bool {
    name == "abs" || overloads(name).is_some()
}

/// An argument that failed to plan because it is a numeric literal: its
/// text and the refusal, kept until the overload is chosen.
pub struct NumericLiteral {
    text: String,
    refusal: String,
}

impl NumericLiteral {
    /// What the engine answered before resolution: the literal's refusal.
    pub fn refusal(&self) -> String {
        self.refusal.clone()
    }
}

/// `arg` planned by `plan`; a numeric literal the engine refuses on its
/// own (`1.5`) comes back as a placeholder of type `numeric`, for
/// resolution, with what [`take_literal`] needs.
pub fn plan_argument(
    arg: &Expr,
    plan: impl FnOnce(&Expr) -> Result<Typed, String>,
) -> Result<(Typed, Option<NumericLiteral>), String> {
    match plan(arg) {
        Ok(t) => Ok((t, None)),
        Err(refusal) => match numeric_literal(arg) {
            Some(text) => {
                let placeholder = ScalarExpr::Literal(Datum::Null);
                let t = Typed::new(placeholder, ScalarType::Numeric, false);
                Ok((t, Some(NumericLiteral { text, refusal })))
            }
            None => Err(refusal),
        },
    }
}

/// A placeholder's value as the chosen overload's parameter: a float
/// read from the literal's text, as the real system casts the `numeric`;
/// for any other parameter, the literal's refusal.
pub fn take_literal(literal: NumericLiteral, param: Param) -> Result<Typed, String> {
    let to = match param {
        Param::Float32 => F32,
        Param::Float64 => F64,
        _ => return Err(literal.refusal),
    };
    let d = float_literal(&literal.text, to)?;
    Ok(Typed::new(ScalarExpr::Literal(d), to, false))
}
