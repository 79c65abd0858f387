//! Tests of scalar evaluation, casts and aggregates.

use super::scalar::is_true;
use super::*;
use crate::plan::{AggregateFunc, BinaryOp, ScalarExpr, UnaryOp};
use crate::repr::{DataflowError, Datum, Numeric, ScalarType};
use AggregateFunc::*;
use Datum::{Bool, Int32, Int64 as Int, Null, Text};

fn lit(d: Datum) -> Box<ScalarExpr> {
    Box::new(ScalarExpr::Literal(d))
}
fn bin(op: BinaryOp, l: Datum, r: Datum) -> Result<Datum, DataflowError> {
    ScalarExpr::Binary(op, lit(l), lit(r)).eval(&[])
}
/// `1 / 0`: an expression that fails.
fn failing() -> Box<ScalarExpr> {
    Box::new(ScalarExpr::Binary(BinaryOp::Div, lit(Int(1)), lit(Int(0))))
}
fn err(text: &str) -> Result<Datum, DataflowError> {
    Err(DataflowError(text.to_string()))
}

#[test]
fn columns_and_literals() {
    let row = [Int(7), Text("x".into())];
    assert_eq!(ScalarExpr::Column(1).eval(&row), Ok(Text("x".into())));
    assert_eq!(ScalarExpr::Literal(Null).eval(&row), Ok(Null));
}

#[test]
fn arithmetic_and_errors() {
    assert_eq!(bin(BinaryOp::Add, Int(2), Int(3)), Ok(Int(5)));
    assert_eq!(bin(BinaryOp::Sub, Int(2), Int(3)), Ok(Int(-1)));
    assert_eq!(bin(BinaryOp::Mul, Int(-2), Int(3)), Ok(Int(-6)));
    assert_eq!(bin(BinaryOp::Div, Int(-7), Int(2)), Ok(Int(-3)));
    assert_eq!(bin(BinaryOp::Mod, Int(-7), Int(2)), Ok(Int(-1)));
    assert_eq!(bin(BinaryOp::Mod, Int(i64::MIN), Int(-1)), Ok(Int(0)));
    let div0 = err("Evaluation error: division by zero");
    assert_eq!(bin(BinaryOp::Div, Int(1), Int(0)), div0);
    assert_eq!(bin(BinaryOp::Mod, Int(1), Int(0)), div0);
    // The real system names the operation that overflowed.
    let range = |what: &str| err(&format!("Evaluation error: \"{what}\" bigint out of range"));
    let overflow = err("Evaluation error: numeric field overflow");
    assert_eq!(bin(BinaryOp::Add, Int(i64::MAX), Int(1)), overflow);
    assert_eq!(bin(BinaryOp::Mul, Int(i64::MAX), Int(2)), overflow);
    assert_eq!(
        bin(BinaryOp::Div, Int(i64::MIN), Int(-1)),
        range("-9223372036854775808 / -1")
    );
    let neg = ScalarExpr::Unary(UnaryOp::Neg, lit(Int(i64::MIN)));
    assert_eq!(neg.eval(&[]), range("-9223372036854775808"));
}

#[test]
fn null_propagation() {
    assert_eq!(bin(BinaryOp::Add, Null, Int(1)), Ok(Null));
    assert_eq!(bin(BinaryOp::Div, Int(1), Null), Ok(Null));
    assert_eq!(bin(BinaryOp::Eq, Null, Null), Ok(Null));
    assert_eq!(
        ScalarExpr::Unary(UnaryOp::Not, lit(Null)).eval(&[]),
        Ok(Null)
    );
    assert_eq!(
        ScalarExpr::Unary(UnaryOp::Neg, lit(Null)).eval(&[]),
        Ok(Null)
    );
    // Both operands are evaluated, and an error comes before a NULL, on
    // either side.
    let e = ScalarExpr::Binary(BinaryOp::Add, lit(Null), failing());
    assert_eq!(e.eval(&[]), err("Evaluation error: division by zero"));
    let e = ScalarExpr::Binary(BinaryOp::Add, failing(), lit(Null));
    assert_eq!(e.eval(&[]), err("Evaluation error: division by zero"));
}

/// Strict operators as Materialize evaluates them: folded first (what reads
/// no column becomes a literal or a literal error), then a literal NULL
/// beside a column is NULL and else a literal error is that error, then
/// both operands are evaluated and an error comes before a NULL.
#[test]
fn as_written_is_evaluated_without_the_folded_shapes_rules() {
    let col = |i| Box::new(ScalarExpr::Column(i));
    let bin = |op, l, r| Box::new(ScalarExpr::Binary(op, l, r));
    let div0 = "Evaluation error: division by zero";
    // `a / b + NULL`: a folded plan's literal NULL makes it NULL on every
    // row; as written, the error comes before the NULL.
    let e = bin(BinaryOp::Add, bin(BinaryOp::Div, col(0), col(1)), lit(Null));
    assert_eq!(e.eval(&[Int(1), Int(0)]), Ok(Null));
    assert_eq!(e.eval_as_written(&[Int(1), Int(0)]), err(div0));
    assert_eq!(e.eval_as_written(&[Int(1), Int(2)]), Ok(Null));
    // `a < 0 AND 1 / 0 = 1`, unfolded: the row's false decides.
    let compared = bin(BinaryOp::Eq, failing(), lit(Int(1)));
    let e = bin(
        BinaryOp::And,
        bin(BinaryOp::Lt, col(0), lit(Int(0))),
        compared,
    );
    assert_eq!(e.eval_as_written(&[Int(5)]), Ok(Bool(false)));
    assert_eq!(e.eval_as_written(&[Int(-5)]), err(div0));
    // A strict call with a literal NULL argument fails on its other
    // argument's error too: `repeat(NULL, a / b)`.
    let call = ScalarExpr::Call(
        crate::plan::Func::Repeat,
        vec![
            ScalarExpr::Literal(Null),
            *bin(BinaryOp::Div, col(0), col(1)),
        ],
    );
    assert_eq!(call.eval(&[Int(1), Int(0)]), Ok(Null));
    assert_eq!(call.eval_as_written(&[Int(1), Int(0)]), err(div0));
}

#[test]
fn strict_operands_fold_then_fail_before_null() {
    let col = |i| Box::new(ScalarExpr::Column(i));
    let bin = |op, l, r| Box::new(ScalarExpr::Binary(op, l, r));
    let div0 = err("Evaluation error: division by zero");
    // Folding: a constant subtree becomes a literal, or a literal error.
    assert_eq!(
        bin(BinaryOp::Add, lit(Int(1)), lit(Int(2))).fold(),
        ScalarExpr::Literal(Int(3))
    );
    assert_eq!(
        failing().fold(),
        ScalarExpr::Error("division by zero".to_string())
    );
    // A strict operator beside a literal error is that error, folded, as
    // Materialize's `reduce` rewrites it before its parent is reduced.
    assert_eq!(
        bin(BinaryOp::Add, col(0), failing()).fold(),
        ScalarExpr::Error("division by zero".to_string())
    );
    // So an AND or OR over it is the error too, even where the other
    // operand decides (`a < 0 AND 1 / 0 = 1`, `a IS NULL OR a + 1 / 0 > 0`).
    for op in [BinaryOp::And, BinaryOp::Or] {
        let compared = bin(BinaryOp::Eq, failing(), lit(Int(1)));
        let e = bin(op, bin(BinaryOp::Lt, col(0), lit(Int(0))), compared).fold();
        assert_eq!(e, ScalarExpr::Error("division by zero".to_string()));
        assert_eq!(e.eval(&[Int(5)]), div0);
    }
    // An IN list's OR the same way; a NULL decides nothing there.
    let eq = |r| ScalarExpr::Binary(BinaryOp::Eq, col(0), r);
    let list = ScalarExpr::Or(vec![eq(lit(Int(1))), eq(failing())]).fold();
    assert_eq!(list.eval(&[Int(1)]), div0);
    let list = ScalarExpr::Or(vec![eq(lit(Int(1))), eq(lit(Null))]).fold();
    assert_eq!(list.eval(&[Int(1)]), Ok(Bool(true)));
    // `a / b + NULL`: NULL on every row, where `a / b` fails too.
    let e = bin(BinaryOp::Add, bin(BinaryOp::Div, col(0), col(1)), lit(Null)).fold();
    assert_eq!(e.eval(&[Int(1), Int(0)]), Ok(Null));
    // `a + 1 / 0`: the error on every row, where `a` is NULL too.
    let e = bin(BinaryOp::Add, col(0), failing()).fold();
    assert_eq!(e.eval(&[Null]), div0);
    // `a + 1 / b`, unfolded at run time: the error before a NULL.
    let right = || bin(BinaryOp::Div, lit(Int(1)), col(1));
    let e = bin(BinaryOp::Add, col(0), right()).fold();
    assert_eq!(e.eval(&[Null, Int(0)]), div0);
    assert_eq!(e.eval(&[Null, Int(1)]), Ok(Null));
    assert_eq!(e.eval(&[Int(1), Int(0)]), div0);
    assert_eq!(e.eval(&[Int(1), Null]), Ok(Null));
    // The other way round the same.
    let e = bin(BinaryOp::Add, right(), col(0)).fold();
    assert_eq!(e.eval(&[Null, Int(0)]), div0);
    // A comparison is strict the same way.
    let e = bin(BinaryOp::Lt, bin(BinaryOp::Div, col(0), col(1)), lit(Null)).fold();
    assert_eq!(e.eval(&[Int(1), Int(0)]), Ok(Null));
}

#[test]
fn is_null() {
    let is_null = |d| ScalarExpr::Unary(UnaryOp::IsNull, lit(d)).eval(&[]);
    let is_not_null = |d| ScalarExpr::Unary(UnaryOp::IsNotNull, lit(d)).eval(&[]);
    assert_eq!(is_null(Null), Ok(Bool(true)));
    assert_eq!(is_null(Int(0)), Ok(Bool(false)));
    assert_eq!(is_not_null(Null), Ok(Bool(false)));
    assert_eq!(is_not_null(Text(String::new())), Ok(Bool(true)));
}

#[test]
fn comparisons() {
    assert_eq!(bin(BinaryOp::Eq, Int(1), Int(1)), Ok(Bool(true)));
    assert_eq!(bin(BinaryOp::NotEq, Int(1), Int(1)), Ok(Bool(false)));
    assert_eq!(bin(BinaryOp::Lt, Int(-1), Int(1)), Ok(Bool(true)));
    assert_eq!(bin(BinaryOp::LtEq, Int(1), Int(1)), Ok(Bool(true)));
    assert_eq!(
        bin(BinaryOp::Gt, Text("b".into()), Text("a".into())),
        Ok(Bool(true))
    );
    assert_eq!(
        bin(BinaryOp::GtEq, Bool(false), Bool(true)),
        Ok(Bool(false))
    );
    assert!(bin(BinaryOp::Eq, Int(1), Text("1".into())).is_err());
}

#[test]
fn three_valued_logic() {
    let t = [Bool(true), Bool(false), Null];
    // Rows: left operand; columns: right operand (true, false, NULL).
    let (t_, f_) = (Bool(true), Bool(false));
    let and = [
        [t_.clone(), f_.clone(), Null],
        [f_.clone(), f_.clone(), f_.clone()],
        [Null, f_.clone(), Null],
    ];
    let or = [
        [t_.clone(), t_.clone(), t_.clone()],
        [t_.clone(), f_.clone(), Null],
        [t_.clone(), Null, Null],
    ];
    for (i, l) in t.iter().enumerate() {
        for (j, r) in t.iter().enumerate() {
            assert_eq!(
                bin(BinaryOp::And, l.clone(), r.clone()),
                Ok(and[i][j].clone())
            );
            assert_eq!(
                bin(BinaryOp::Or, l.clone(), r.clone()),
                Ok(or[i][j].clone())
            );
        }
    }
}

#[test]
fn deciding_operand_beats_errors_in_either_order() {
    let div0 = err("Evaluation error: division by zero");
    let e = |op, l: Box<ScalarExpr>, r: Box<ScalarExpr>| ScalarExpr::Binary(op, l, r).eval(&[]);
    assert_eq!(
        e(BinaryOp::And, lit(Bool(false)), failing()),
        Ok(Bool(false))
    );
    assert_eq!(
        e(BinaryOp::And, failing(), lit(Bool(false))),
        Ok(Bool(false))
    );
    assert_eq!(e(BinaryOp::Or, failing(), lit(Bool(true))), Ok(Bool(true)));
    assert_eq!(e(BinaryOp::And, lit(Bool(true)), failing()), div0);
    assert_eq!(e(BinaryOp::And, failing(), lit(Null)), div0);
    assert_eq!(e(BinaryOp::Or, lit(Bool(false)), failing()), div0);
}

#[test]
fn predicates() {
    assert!(is_true(&Bool(true)));
    assert!(!is_true(&Bool(false)));
    assert!(!is_true(&Null));
    assert!(!is_true(&Int(1)));
}

#[test]
fn aggregates() {
    let values = [(Int(3), 2), (Null, 4), (Int(-1), 1)];
    assert_eq!(aggregate(CountAll, &values), Ok(Int(7)));
    assert_eq!(aggregate(Count, &values), Ok(Int(3)));
    assert_eq!(aggregate(Sum, &values), Ok(Int(5)));
    assert_eq!(aggregate(Min, &values), Ok(Int(-1)));
    assert_eq!(aggregate(Max, &values), Ok(Int(3)));
    let texts = [(Text("b".into()), 1), (Text("a".into()), 3)];
    assert_eq!(aggregate(Min, &texts), Ok(Text("a".into())));
    assert_eq!(aggregate(Max, &texts), Ok(Text("b".into())));
}

#[test]
fn aggregates_over_nulls_only() {
    let nulls = [(Null, 2)];
    assert_eq!(aggregate(CountAll, &nulls), Ok(Int(2)));
    assert_eq!(aggregate(Count, &nulls), Ok(Int(0)));
    for func in [Sum, Min, Max] {
        assert_eq!(aggregate(func, &nulls), Ok(Null));
    }
}

#[test]
fn avg_is_a_numeric_as_the_real_system_divides() {
    let avg = |vals: &[i64]| {
        let values: Vec<_> = vals.iter().map(|v| (Int(*v), 1)).collect();
        aggregate(Avg, &values).map(|d| d.to_string())
    };
    assert_eq!(avg(&[1, 2]), Ok("1.5".into()));
    assert_eq!(avg(&[1, 1, 2, 3]), Ok("1.75".into()));
    let thirds = "2.33333333333333333333333333333333333333";
    assert_eq!(avg(&[1, 2, 4]), Ok(thirds.into()));
    assert_eq!(avg(&[-1, -2, -4]), Ok(format!("-{thirds}")));
    assert_eq!(
        avg(&[2, 3, 3]),
        Ok("2.66666666666666666666666666666666666667".into())
    );
    assert_eq!(avg(&[1_000_000, 2_000_000]), Ok("1500000".into()));
    assert_eq!(avg(&[12345, 12345]), Ok("12345".into()));
    assert_eq!(avg(&[0, 0]), Ok("0".into()));
    assert_eq!(aggregate(Avg, &[(Datum::Null, 2)]), Ok(Datum::Null));
}

#[test]
fn numerics_order_by_value() {
    let n = |s: &str| Numeric::parse(s).unwrap();
    assert!(n("-1.5") < n("-1.25"));
    assert!(n("-0.5") < n("0.5"));
    assert!(n("1.25") < n("1.5"));
    assert!(n("2") > n("1.99"));
    assert_eq!(n("-0.05").to_string(), "-0.05");
}

#[test]
fn sum_overflow_is_an_error() {
    let range = Err(crate::eval::sum_out_of_range());
    assert_eq!(aggregate(Sum, &[(Int(i64::MAX), 1), (Int(1), 1)]), range);
    assert_eq!(aggregate(Sum, &[(Int(i64::MAX / 2 + 1), 2)]), range);
    // Only the total counts: an intermediate overflow is no error.
    let values = [(Int(i64::MAX), 1), (Int(1), 1), (Int(-5), 1)];
    assert_eq!(aggregate(Sum, &values), Ok(Int(i64::MAX - 4)));
}

#[test]
fn empty_aggregates() {
    assert_eq!(empty_aggregate(CountAll), Int(0));
    assert_eq!(empty_aggregate(Count), Int(0));
    for func in [Sum, Min, Max] {
        assert_eq!(empty_aggregate(func), Null);
    }
}

#[test]
fn integers_overflow_at_their_own_width() {
    let int4_range = |what: &str| {
        err(&format!(
            "Evaluation error: \"{what}\" integer out of range"
        ))
    };
    let int8_range = |what: &str| err(&format!("Evaluation error: \"{what}\" bigint out of range"));
    // A sum, difference or product beyond its type is the real system's
    // `numeric field overflow`; a quotient or negation names its operands.
    let overflow = err("Evaluation error: numeric field overflow");
    assert_eq!(bin(BinaryOp::Add, Int32(i32::MAX), Int32(1)), overflow);
    assert_eq!(
        bin(BinaryOp::Add, Int(i64::from(i32::MAX)), Int(1)),
        Ok(Int(2_147_483_648))
    );
    assert_eq!(bin(BinaryOp::Mul, Int32(65_536), Int32(32_768)), overflow);
    assert_eq!(
        bin(BinaryOp::Div, Int32(i32::MIN), Int32(-1)),
        int4_range("-2147483648 / -1")
    );
    assert_eq!(bin(BinaryOp::Mod, Int32(i32::MIN), Int32(-1)), Ok(Int32(0)));
    assert_eq!(bin(BinaryOp::Sub, Int32(-7), Int32(2)), Ok(Int32(-9)));
    assert_eq!(bin(BinaryOp::Add, Int(i64::MAX), Int(1)), overflow);
    assert_eq!(
        bin(BinaryOp::Div, Int(i64::MIN), Int(-1)),
        int8_range("-9223372036854775808 / -1")
    );
    let neg = ScalarExpr::Unary(UnaryOp::Neg, lit(Int32(i32::MIN)));
    assert_eq!(neg.eval(&[]), int4_range("-2147483648"));
    // The sum and count of integers are bigints.
    let values = [(Int32(i32::MAX), 2)];
    assert_eq!(aggregate(Sum, &values), Ok(Int(2 * i64::from(i32::MAX))));
    assert_eq!(aggregate(Count, &values), Ok(Int(2)));
}

#[test]
fn casts() {
    let c = |d, to| ScalarExpr::Cast(to, lit(d)).eval(&[]);
    use ScalarType as T;
    assert_eq!(c(Int32(5), T::Int64), Ok(Int(5)));
    assert_eq!(c(Int(5), T::Int32), Ok(Int32(5)));
    assert_eq!(
        c(Int(1 << 40), T::Int32),
        err("Evaluation error: \"1099511627776\" integer out of range")
    );
    assert_eq!(c(Int32(-3), T::Text), Ok(Text("-3".into())));
    assert_eq!(c(Bool(true), T::Text), Ok(Text("true".into())));
    assert_eq!(c(Text(" 42 ".into()), T::Int32), Ok(Int32(42)));
    assert_eq!(c(Text("yes".into()), T::Bool), Ok(Bool(true)));
    assert_eq!(c(Int32(0), T::Bool), Ok(Bool(false)));
    assert_eq!(c(Bool(true), T::Int32), Ok(Int32(1)));
    assert_eq!(c(Null, T::Int32), Ok(Null));
    assert_eq!(
        c(Text("x".into()), T::Int64),
        err("Evaluation error: invalid input syntax for type bigint: invalid digit found in string: \"x\"")
    );
    // The real system casts a bigint to a boolean, PostgreSQL does not.
    assert!(castable(T::Int32, T::Bool) && castable(T::Int64, T::Bool));
    assert_eq!(c(Int(-2), T::Bool), Ok(Datum::Bool(true)));
    assert_eq!(c(Int(0), T::Bool), Ok(Datum::Bool(false)));
    assert!(!castable(T::Bool, T::Int64));
    for (text, b) in [
        ("tR", true),
        (" yes ", true),
        ("on", true),
        ("fa", false),
        ("of", false),
        ("0", false),
    ] {
        assert_eq!(c(Text(text.into()), T::Bool), Ok(Datum::Bool(b)), "{text}");
    }
    for text in ["o", "tru e", "2", ""] {
        assert!(c(Text(text.into()), T::Bool).is_err(), "{text}");
    }
}

#[test]
fn case_and_coalesce_evaluate_only_what_they_need() {
    let case = |cond: Box<ScalarExpr>, then: Box<ScalarExpr>| {
        ScalarExpr::Case {
            whens: vec![(*cond, *then)],
            els: lit(Int32(0)),
        }
        .eval(&[])
    };
    assert_eq!(case(lit(Bool(false)), failing()), Ok(Int32(0)));
    assert_eq!(case(lit(Null), failing()), Ok(Int32(0)));
    assert_eq!(case(lit(Bool(true)), lit(Int32(1))), Ok(Int32(1)));
    assert_eq!(
        case(failing(), lit(Int32(1))),
        err("Evaluation error: division by zero")
    );
    // Arms are tried in order; the first that holds is the only result
    // evaluated, and a condition's error before it is the answer.
    let arms = |conds: Vec<Box<ScalarExpr>>| ScalarExpr::Case {
        whens: (0..conds.len())
            .zip(conds)
            .map(|(i, c)| (*c, ScalarExpr::Literal(Int32(i as i32 + 1))))
            .collect(),
        els: failing(),
    };
    let taken = arms(vec![
        lit(Null),
        lit(Bool(false)),
        lit(Bool(true)),
        failing(),
    ]);
    assert_eq!(taken.eval(&[]), Ok(Int32(3)));
    let failed = arms(vec![lit(Bool(false)), failing(), lit(Bool(true))]);
    assert_eq!(failed.eval(&[]), err("Evaluation error: division by zero"));
    let none = arms(vec![lit(Bool(false))]);
    assert_eq!(none.eval(&[]), err("Evaluation error: division by zero"));
    let coalesce = |exprs: Vec<ScalarExpr>| ScalarExpr::Coalesce(exprs).eval(&[]);
    assert_eq!(
        coalesce(vec![*lit(Null), *lit(Int32(2)), *failing()]),
        Ok(Int32(2))
    );
    assert_eq!(coalesce(vec![*lit(Null), *lit(Null)]), Ok(Null));
    assert_eq!(
        coalesce(vec![*lit(Null), *failing()]),
        err("Evaluation error: division by zero")
    );
}

#[test]
fn like_patterns() {
    let like = |t: &str, p: &str| bin(BinaryOp::Like, Text(t.into()), Text(p.into()));
    for (text, pattern, expected) in [
        ("abc", "abc", true),
        ("abc", "ab", false),
        ("abc", "a%", true),
        ("abc", "%c", true),
        ("abc", "%b%", true),
        ("abc", "a_c", true),
        ("abc", "a__c", false),
        ("", "%", true),
        ("", "_", false),
        ("a%c", "a\\%c", true),
        ("abc", "a\\%c", false),
        ("aXbXc", "%X%X%", true),
        ("ABC", "abc", false),
    ] {
        assert_eq!(
            like(text, pattern),
            Ok(Bool(expected)),
            "{text} LIKE {pattern}"
        );
    }
    assert_eq!(
        bin(BinaryOp::ILike, Text("ABC".into()), Text("a%".into())),
        Ok(Bool(true))
    );
    assert_eq!(
        like("a", "a\\"),
        err("Evaluation error: unterminated escape sequence in LIKE")
    );
    assert_eq!(bin(BinaryOp::Like, Null, Text("%".into())), Ok(Null));
}

/// An OR of many operands side by side (an IN list) answers exactly what
/// the left-deep chain of binary ORs it stands for answers, for every
/// sequence of up to four operands among true, false, NULL and two errors
/// (which error wins, too).
#[test]
fn a_flat_or_answers_as_the_chain_of_binary_ors() {
    let other_error = || {
        Box::new(ScalarExpr::Binary(
            BinaryOp::Add,
            lit(Int32(i32::MAX)),
            lit(Int32(1)),
        ))
    };
    let values: [fn() -> Box<ScalarExpr>; 5] = [
        || lit(Bool(true)),
        || lit(Bool(false)),
        || lit(Null),
        failing,
        other_error,
    ];
    for len in 1..=4u32 {
        for pick in 0..5usize.pow(len) {
            let operands: Vec<Box<ScalarExpr>> = (0..len)
                .map(|i| values[pick / 5usize.pow(i) % 5]())
                .collect();
            let flat = ScalarExpr::Or(operands.iter().map(|o| (**o).clone()).collect());
            let chain = operands
                .into_iter()
                .reduce(|l, r| Box::new(ScalarExpr::Binary(BinaryOp::Or, l, r)))
                .expect("at least one");
            assert_eq!(flat.eval(&[]), chain.eval(&[]), "{flat:?}");
        }
    }
}
