//! `variance`, `var_samp`, `var_pop`, `stddev`, `stddev_samp` and
//! `stddev_pop`, as Materialize plans them: rewritten before planning
//! (`transform_ast.rs`, `plan_variance` and `plan_stddev`) into the
//! "textbook" formula over two `sum`s and a `count` of the argument
//! promoted as `avg` promotes it (`mz_avg_promotion`: an integer to a
//! `numeric`, a float or a `numeric` as it is). The rewrite is planned as
//! written SQL, so that its arithmetic, its types and its rounding are the
//! planner's own, and the answers Materialize's to the last digit:
//!
//! ```text
//! var_samp(x) = (sum(x * x) - sum(x) * sum(x) / count(x)) / (count(x) - 1)
//! var_pop(x)  = (sum(x * x) - sum(x) * sum(x) / count(x)) / count(x)
//! ```
//!
//! each division by `CASE WHEN d = 0 THEN NULL ELSE d END`, and the result
//! kept from going below zero by rounding (`CASE WHEN r IS NULL THEN NULL
//! ELSE greatest(r, 0) END`); the `stddev`s take its `sqrt`. A `FILTER` and
//! `DISTINCT` go to each `sum` and the `count`.

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, CastKind, DataType, DuplicateTreatment, ExactNumberInfo, Expr,
    Function, FunctionArg, FunctionArgExpr, FunctionArgumentList, FunctionArguments, Ident,
    ObjectName, Value,
};

use super::aggregate_call::{Call, Variance};
use super::typed::Typed;
use super::ExprContext;
use crate::repr::{unsupported, ScalarType};

impl ExprContext<'_> {
    /// `call`, one of the six, planned as Materialize's rewrite of it.
    pub(super) fn variance(&mut self, call: &Call, variance: Variance) -> Result<Typed, String> {
        let name = variance.name;
        if self.grouping.is_none() {
            // Where aggregates are not allowed, the rewrite's first `sum`
            // is what the error names, as `bool_and`'s.
            return self.aggregate(&Call {
                args: call.args.clone(),
                rewrite: None,
                ..*call
            });
        }
        let x = call.args[0];
        // The argument's type decides its promotion; it is planned again
        // inside the rewrite.
        let mut probe = ExprContext::within(
            self.scope,
            "nested aggregate functions are not allowed",
            self.outer,
        );
        let arg = probe.plan(x)?;
        let nested = Expr::Nested(Box::new(x.clone()));
        let promoted = match arg.typ {
            _ if arg.is_unknown() => {
                return Err(unsupported(format!("{name} of an unknown-typed argument")))
            }
            Some(t) if t.is_integer() => Expr::Cast {
                kind: CastKind::Cast,
                expr: Box::new(nested),
                data_type: DataType::Numeric(ExactNumberInfo::None),
                format: None,
            },
            Some(
                ScalarType::Float32
                | ScalarType::Float64
                | ScalarType::Numeric
                | ScalarType::NumericScale(_),
            ) => nested,
            _ => return Err(unsupported(format!("{name} of {}", arg.type_name()))),
        };
        let filter = call.filter.map(|f| Box::new(f.clone()));
        let aggregate =
            |func: &str, arg: Expr| function(func, vec![arg], call.distinct, filter.clone());
        let squared = binary(promoted.clone(), BinaryOperator::Multiply, promoted.clone());
        let sum_squares = aggregate("sum", squared);
        let sum = aggregate("sum", promoted.clone());
        let count = aggregate("count", promoted);
        let sum_squared = binary(sum.clone(), BinaryOperator::Multiply, sum);
        let below = match variance.sample {
            true => binary(count.clone(), BinaryOperator::Minus, number("1")),
            false => count.clone(),
        };
        let spread = binary(
            sum_squares,
            BinaryOperator::Minus,
            divide(sum_squared, count),
        );
        let result = divide(spread, below);
        let zero = number("0");
        let floor = function("greatest", vec![result.clone(), zero], false, None);
        let kept = null_when(Expr::IsNull(Box::new(result)), floor);
        let rewritten = match variance.root {
            true => function("sqrt", vec![kept], false, None),
            false => kept,
        };
        self.plan(&rewritten)
    }
}

/// `(l op r)`.
fn binary(l: Expr, op: BinaryOperator, r: Expr) -> Expr {
    Expr::Nested(Box::new(Expr::BinaryOp {
        left: Box::new(l),
        op,
        right: Box::new(r),
    }))
}

/// `l / CASE WHEN r = 0 THEN NULL ELSE r END`: Materialize's
/// `plan_divide`, a division by zero that is NULL.
fn divide(l: Expr, r: Expr) -> Expr {
    let guarded = null_when(binary(r.clone(), BinaryOperator::Eq, number("0")), r);
    binary(l, BinaryOperator::Divide, guarded)
}

/// `CASE WHEN condition THEN NULL ELSE otherwise END`.
fn null_when(condition: Expr, otherwise: Expr) -> Expr {
    case(condition, Expr::Value(Value::Null.into()), otherwise)
}

/// `CASE WHEN condition THEN then ELSE otherwise END`.
fn case(condition: Expr, then: Expr, otherwise: Expr) -> Expr {
    Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![CaseWhen {
            condition,
            result: then,
        }],
        else_result: Some(Box::new(otherwise)),
    }
}

fn number(text: &str) -> Expr {
    Expr::Value(Value::Number(text.to_string(), false).into())
}

/// `name(args)`, with `DISTINCT` and a `FILTER` if given.
fn function(name: &str, args: Vec<Expr>, distinct: bool, filter: Option<Box<Expr>>) -> Expr {
    Expr::Function(Function {
        name: ObjectName::from(vec![Ident::new(name)]),
        uses_odbc_syntax: false,
        parameters: FunctionArguments::None,
        args: FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: distinct.then_some(DuplicateTreatment::Distinct),
            args: args
                .into_iter()
                .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
                .collect(),
            clauses: vec![],
        }),
        within_group: vec![],
        filter,
        null_treatment: None,
        over: None,
    })
}
