//! The unary operators: `-`, `+` and `NOT`, and a minus sign before a
//! number as Materialize's parser reads it. Where an expression begins, `-`
//! followed by a nonzero number is one literal, the negative number, and
//! what follows (`::`, `^`) applies to that literal (its `sql-parser`
//! `parse_prefix`, read for the facts). sqlparser reads `-1::bool` as
//! `-(1::bool)`; Materialize as `(-1)::bool`, which is `true`. So
//! `-32768::int2` and `-2147483648::int4` are values, not overflows, and
//! `-1::text` is the text `-1`. `-0` stays the operator, and so does a
//! minus before a parenthesis (`-(1)::bool` is an error in both).

use sqlparser::ast::{CastKind, Expr, UnaryOperator, Value};

use super::typed::{bit_not, int_literal};
use super::{ExprContext, Typed};
use crate::plan::{ScalarExpr, UnaryOp};
use crate::repr::{unsupported, ScalarType};

impl ExprContext<'_> {
    pub(super) fn unary(&mut self, op: &UnaryOperator, e: &Expr) -> Result<Typed, String> {
        let int = |t: &str| format!("operator does not exist: {op} {t}");
        match op {
            // `-5` is a literal, so that `-9223372036854775808` is one too.
            UnaryOperator::Minus => match e {
                Expr::Value(v) if matches!(v.value, Value::Number(..)) => {
                    int_literal(&format!("-{}", v.value))
                }
                _ => {
                    if let Some(literal) = negated_operand(e) {
                        return self.plan(&literal);
                    }
                    let t = self.plan(e)?;
                    refuse_unsigned(op, &t)?;
                    // `- interval`, the real system's `neg_interval`.
                    let interval = t.typ == Some(ScalarType::Interval) && !t.is_unknown();
                    let t = if interval { t } else { t.expect_signed(int)? };
                    let neg = ScalarExpr::Unary(UnaryOp::Neg, Box::new(t.expr));
                    Ok(Typed { expr: neg, ..t })
                }
            },
            UnaryOperator::Plus => {
                let t = self.plan(e)?;
                refuse_unsigned(op, &t)?;
                t.expect_signed(int)
            }
            UnaryOperator::Not => {
                let outer = std::mem::replace(&mut self.name, "NOT argument");
                let planned = self.plan(e);
                self.name = outer;
                let t = planned?.expect(ScalarType::Bool, |t| {
                    format!("NOT argument must have type boolean, not type {t}")
                })?;
                let not = ScalarExpr::Unary(UnaryOp::Not, Box::new(t.expr));
                Ok(Typed::new(not, ScalarType::Bool, t.nullable))
            }
            // `~` of an unsigned integer, Materialize's `bit_not_uint16`
            // and kin; of any other type it is refused.
            UnaryOperator::BitwiseNot => {
                let t = self.plan(e)?;
                bit_not(&t).ok_or_else(|| unsupported(format!("operator {op}")))
            }
            _ => Err(unsupported(format!("operator {op}"))),
        }
    }
}

/// The refusal of a unary `-` or `+` of an unsigned integer: Materialize
/// has no such operator of its own, and reaches a signed one by an
/// implicit cast the engine does not model.
fn refuse_unsigned(op: &UnaryOperator, t: &Typed) -> Result<(), String> {
    match t.typ.filter(|t| t.is_unsigned()) {
        Some(u) => Err(unsupported(format!("operator {op} of {}", u.name()))),
        None => Ok(()),
    }
}

/// The operand of a unary minus with its leftmost number negated, if
/// Materialize's parser reads the minus and that number as one literal:
/// the number is nonzero and begins the operand, under any casts (`::`) and
/// operators sqlparser bound tighter than the minus (they apply to the
/// literal in Materialize's reading). `None` otherwise.
pub fn negated_operand(operand: &Expr) -> Option<Expr> {
    let mut out = operand.clone();
    // A loop, not a recursion: the operand may nest hundreds of levels.
    let mut e = &mut out;
    loop {
        e = match e {
            Expr::Cast {
                kind: CastKind::DoubleColon,
                expr,
                ..
            } => expr,
            Expr::BinaryOp { left, .. } => left,
            Expr::Value(v) => {
                let Value::Number(n, long) = &v.value else {
                    return None;
                };
                if n.parse::<f64>().ok()? == 0.0 {
                    return None;
                }
                v.value = Value::Number(format!("-{n}"), *long);
                return Some(out);
            }
            _ => return None,
        };
    }
}

/// `n` in `GROUP BY -n`: Materialize's parser reads `-n` as the number, so a
/// position that cannot be one (`unable to parse column reference`).
pub fn negative_number(e: &Expr) -> Option<String> {
    let Expr::UnaryOp { op, expr } = e else {
        return None;
    };
    if *op != UnaryOperator::Minus {
        return None;
    }
    match negated_operand(expr)? {
        Expr::Value(v) => match v.value {
            Value::Number(n, _) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::parser::Parser;

    fn operand(sql: &str) -> Expr {
        let e = Parser::new(&crate::sql::parse::DIALECT)
            .try_with_sql(sql)
            .unwrap()
            .parse_expr()
            .unwrap();
        match e {
            Expr::UnaryOp { expr, .. } => *expr,
            other => panic!("not a unary minus: {other}"),
        }
    }

    #[test]
    fn a_minus_before_a_nonzero_number_is_part_of_it() {
        let negated = |sql: &str| negated_operand(&operand(sql)).map(|e| e.to_string());
        assert_eq!(negated("-1::bool").as_deref(), Some("-1::BOOL"));
        assert_eq!(negated("-32768::int2").as_deref(), Some("-32768::INT2"));
        assert_eq!(
            negated("-1.5::int::text").as_deref(),
            Some("-1.5::INT::TEXT")
        );
        assert_eq!(negated("-2 ^ 2").as_deref(), Some("-2 ^ 2"));
        // The operator stays: zero, a parenthesis, a name, a function.
        for sql in ["-0::bool", "-0.0::int", "-(1)::bool", "-a::int", "-abs(1)"] {
            assert_eq!(negated(sql), None, "{sql}");
        }
    }

    #[test]
    fn a_negative_group_by_position_is_a_number() {
        let e = |sql: &str| {
            Parser::new(&crate::sql::parse::DIALECT)
                .try_with_sql(sql)
                .unwrap()
                .parse_expr()
                .unwrap()
        };
        assert_eq!(negative_number(&e("-1")).as_deref(), Some("-1"));
        assert_eq!(negative_number(&e("-0")), None);
        assert_eq!(negative_number(&e("-1::int")), None);
        assert_eq!(negative_number(&e("1")), None);
    }
}
