//! Planning `char(n)` and `varchar(n)`: their type names and lengths, the
//! type a comparison of two strings is made in, casts and assignments,
//! `LIKE` reading a `char` padded, and what is refused.

use super::*;
use ScalarType::{Char, VarChar};

/// The one expression `SELECT <e> FROM strs` maps.
fn mapped(e: &str) -> ScalarExpr {
    let s = select(&format!("SELECT {e} FROM strs"));
    let RelationPlan::Project { input, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    let RelationPlan::Map { mut exprs, .. } = *input else {
        panic!()
    };
    exprs.pop().unwrap()
}

fn un(op: UnaryOp, e: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Unary(op, Box::new(e))
}

#[test]
fn type_names_and_lengths() {
    let typ = |sql: &str| select(&format!("SELECT {sql}")).columns[0].typ;
    assert_eq!(typ("'a'::char(3)"), Char(Some(3)));
    assert_eq!(typ("'a'::character(3)"), Char(Some(3)));
    assert_eq!(typ("'a'::char"), Char(Some(1)));
    assert_eq!(typ("'a'::bpchar"), Char(None));
    assert_eq!(typ("'a'::bpchar(2)"), Char(Some(2)));
    assert_eq!(typ("'a'::varchar(3)"), VarChar(Some(3)));
    assert_eq!(typ("'a'::character varying(3)"), VarChar(Some(3)));
    assert_eq!(typ("'a'::varchar"), VarChar(None));
    assert_eq!(
        err("SELECT ''::char(0)"),
        "length for type character must be between 1 and 10485760"
    );
    assert_eq!(
        err("SELECT ''::varchar(10485760)"),
        "length for type character varying must be between 1 and 10485760"
    );
    // A cast's column is named after the type's internal name.
    assert_eq!(select("SELECT 'a'::char(3)").columns[0].name, "bpchar");
    assert_eq!(
        err("SELECT c + 1 FROM strs"),
        "operator does not exist: char(3) + integer"
    );
}

#[test]
fn comparisons_pick_char_or_text() {
    let trimmed = |e| un(UnaryOp::Assign(Char(None)), e);
    // char with char, varchar or a literal: as chars, the others trimmed.
    assert_eq!(mapped("c = c"), bin(BinaryOp::Eq, c(0), c(0)));
    assert_eq!(mapped("c = v"), bin(BinaryOp::Eq, c(0), trimmed(c(1))));
    assert_eq!(mapped("c < 'a  '"), bin(BinaryOp::Lt, c(0), text("a")));
    // char with text, varchar with text or a literal: as texts, as kept.
    assert_eq!(mapped("c = x"), bin(BinaryOp::Eq, c(0), c(2)));
    assert_eq!(mapped("v = x"), bin(BinaryOp::Eq, c(1), c(2)));
    assert_eq!(mapped("v = 'a '"), bin(BinaryOp::Eq, c(1), text("a ")));
}

#[test]
fn casts_cut_and_assignments_check() {
    // A literal is cut when planned; a column when evaluated.
    assert_eq!(mapped("'abcdef'::char(3)"), text("abc"));
    assert_eq!(mapped("'ab  '::varchar(3)"), text("ab "));
    assert_eq!(
        mapped("x::varchar(2)"),
        ScalarExpr::Cast(VarChar(Some(2)), Box::new(c(2)))
    );
    let Statement::Update { assignments, .. } = one("UPDATE strs SET c = x, v = 5") else {
        panic!()
    };
    assert_eq!(
        assignments,
        vec![
            (0, un(UnaryOp::Assign(Char(Some(3))), c(2))),
            (1, un(UnaryOp::Assign(VarChar(Some(3))), int(5))),
        ]
    );
}

#[test]
fn like_pads_a_char_and_refusals() {
    assert_eq!(
        mapped("c LIKE 'a%'"),
        bin(
            BinaryOp::Like,
            un(UnaryOp::PadChar(Some(3)), c(0)),
            text("a%")
        )
    );
    assert_eq!(mapped("v LIKE c"), bin(BinaryOp::Like, c(1), c(0)));
    assert_eq!(
        err("SELECT COALESCE(c, 'x') FROM strs"),
        "unsupported: COALESCE of char"
    );
    assert_eq!(
        select("SELECT COALESCE(x, c) FROM strs").columns[0].typ,
        Text
    );
    // A CASE's results are taken in order, its ELSE last.
    assert_eq!(
        select("SELECT CASE WHEN true THEN v ELSE c END FROM strs").columns[0].typ,
        VarChar(None)
    );
    assert_eq!(
        err("SELECT CASE WHEN true THEN c ELSE v END FROM strs"),
        "unsupported: CASE of char"
    );
}
