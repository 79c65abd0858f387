//! The name of every form of sqlparser's AST that the planner meets:
//! expressions, query bodies, FROM items, joins, select items and (in
//! `statement.rs`) statements. Each `match` is exhaustive, with no
//! wildcard arm, so that an upgrade of sqlparser that adds a form fails to
//! compile here until the form is named; and every arm of the planner
//! that does not plan a form refuses it as `unsupported: <its name>`, so a
//! form is either planned exactly or refused, never passed through. The
//! lists of names (`EXPR_FORMS`, ...) let `tests/forms/` check that each
//! form has a SQL text that produces it, or is named as one the PostgreSQL
//! dialect cannot produce.

mod statement;

pub use statement::{drop_object, statement};
#[cfg(test)]
pub use statement::{DROP_OBJECT_FORMS, STATEMENT_FORMS};

use sqlparser::ast::{Expr, JoinOperator, SelectItem, SetExpr, TableFactor};

/// A naming function `$fn` for the enum `$enum` (its forms `$pat`, each
/// named `$name`), returning `<$label> <name>`, and the list `$list` of
/// every name.
macro_rules! forms {
    ($(#[$doc:meta])* $fn:ident, $list:ident, $enum:ident, $label:literal, $($pat:pat => $name:literal,)*) => {
        $(#[$doc])*
        pub fn $fn(form: &$enum) -> String {
            let name = match form {
                $($pat => $name,)*
            };
            format!("{} {name}", $label)
        }

        /// Every name of the forms of this enum.
        #[cfg(test)]
        pub const $list: &[&str] = &[$($name,)*];
    };
}
pub(crate) use forms;

forms! {
    /// The name of a `Expr` form, as a refusal names it (`expression ...`).
    expr, EXPR_FORMS, Expr, "expression",
    Expr::Identifier(..) => "identifier",
    Expr::CompoundIdentifier(..) => "compound identifier",
    Expr::CompoundFieldAccess { .. } => "compound field access",
    Expr::JsonAccess { .. } => "json access",
    Expr::IsFalse(..) => "is false",
    Expr::IsNotFalse(..) => "is not false",
    Expr::IsTrue(..) => "is true",
    Expr::IsNotTrue(..) => "is not true",
    Expr::IsNull(..) => "is null",
    Expr::IsNotNull(..) => "is not null",
    Expr::IsUnknown(..) => "is unknown",
    Expr::IsNotUnknown(..) => "is not unknown",
    Expr::IsDistinctFrom(..) => "is distinct from",
    Expr::IsNotDistinctFrom(..) => "is not distinct from",
    Expr::IsJson { .. } => "is json",
    Expr::IsNormalized { .. } => "is normalized",
    Expr::In { .. } => "in",
    Expr::Between { .. } => "between",
    Expr::BinaryOp { .. } => "binary op",
    Expr::Like { .. } => "like",
    Expr::ILike { .. } => "i like",
    Expr::SimilarTo { .. } => "similar to",
    Expr::RLike { .. } => "r like",
    Expr::AnyOp { .. } => "any op",
    Expr::AllOp { .. } => "all op",
    Expr::UnaryOp { .. } => "unary op",
    Expr::Convert { .. } => "convert",
    Expr::Cast { .. } => "cast",
    Expr::AtTimeZone { .. } => "at time zone",
    Expr::Extract { .. } => "extract",
    Expr::Ceil { .. } => "ceil",
    Expr::Floor { .. } => "floor",
    Expr::Position { .. } => "position",
    Expr::Substring { .. } => "substring",
    Expr::Trim { .. } => "trim",
    Expr::Overlay { .. } => "overlay",
    Expr::Collate { .. } => "collate",
    Expr::Nested(..) => "nested",
    Expr::Value(..) => "value",
    Expr::Prefixed { .. } => "prefixed",
    Expr::TypedString(..) => "typed string",
    Expr::Function(..) => "function",
    Expr::Case { .. } => "case",
    Expr::Exists { .. } => "exists",
    Expr::Subquery(..) => "subquery",
    Expr::GroupingSets(..) => "grouping sets",
    Expr::Cube(..) => "cube",
    Expr::Rollup(..) => "rollup",
    Expr::Tuple(..) => "tuple",
    Expr::Struct { .. } => "struct",
    Expr::Named { .. } => "named",
    Expr::Dictionary(..) => "dictionary",
    Expr::Map(..) => "map",
    Expr::Array(..) => "array",
    Expr::Interval(..) => "interval",
    Expr::MatchAgainst { .. } => "match against",
    Expr::Wildcard(..) => "wildcard",
    Expr::QualifiedWildcard(..) => "qualified wildcard",
    Expr::OuterJoin(..) => "outer join",
    Expr::Prior(..) => "prior",
    Expr::Lambda(..) => "lambda",
    Expr::MemberOf(..) => "member of",
}

forms! {
    /// The name of a `SetExpr` form, as a refusal names it (`query body ...`).
    set_expr, SET_EXPR_FORMS, SetExpr, "query body",
    SetExpr::Select(..) => "select",
    SetExpr::Query(..) => "query",
    SetExpr::SetOperation { .. } => "set operation",
    SetExpr::Values(..) => "values",
    SetExpr::Insert(..) => "insert",
    SetExpr::Update(..) => "update",
    SetExpr::Delete(..) => "delete",
    SetExpr::Merge(..) => "merge",
    SetExpr::Table(..) => "table",
}

forms! {
    /// The name of a `TableFactor` form, as a refusal names it (`FROM item ...`).
    table_factor, TABLE_FACTOR_FORMS, TableFactor, "FROM item",
    TableFactor::Table { .. } => "table",
    TableFactor::Derived { .. } => "derived",
    TableFactor::TableFunction { .. } => "table function",
    TableFactor::Function { .. } => "function",
    TableFactor::UNNEST { .. } => "unnest",
    TableFactor::JsonTable { .. } => "json table",
    TableFactor::OpenJsonTable { .. } => "open json table",
    TableFactor::NestedJoin { .. } => "nested join",
    TableFactor::Pivot { .. } => "pivot",
    TableFactor::Unpivot { .. } => "unpivot",
    TableFactor::UnpivotExpr { .. } => "unpivot expr",
    TableFactor::MatchRecognize { .. } => "match recognize",
    TableFactor::XmlTable { .. } => "xml table",
    TableFactor::SemanticView { .. } => "semantic view",
}

forms! {
    /// The name of a `JoinOperator` form, as a refusal names it (`join ...`).
    join_operator, JOIN_OPERATOR_FORMS, JoinOperator, "join",
    JoinOperator::Join(..) => "join",
    JoinOperator::Inner(..) => "inner",
    JoinOperator::Left(..) => "left",
    JoinOperator::LeftOuter(..) => "left outer",
    JoinOperator::Right(..) => "right",
    JoinOperator::RightOuter(..) => "right outer",
    JoinOperator::FullOuter(..) => "full outer",
    JoinOperator::CrossJoin(..) => "cross join",
    JoinOperator::Semi(..) => "semi",
    JoinOperator::LeftSemi(..) => "left semi",
    JoinOperator::RightSemi(..) => "right semi",
    JoinOperator::Anti(..) => "anti",
    JoinOperator::LeftAnti(..) => "left anti",
    JoinOperator::RightAnti(..) => "right anti",
    JoinOperator::CrossApply => "cross apply",
    JoinOperator::OuterApply => "outer apply",
    JoinOperator::AsOf { .. } => "as of",
    JoinOperator::StraightJoin(..) => "straight join",
    JoinOperator::ArrayJoin => "array join",
    JoinOperator::LeftArrayJoin => "left array join",
    JoinOperator::InnerArrayJoin => "inner array join",
}

forms! {
    /// The name of a `SelectItem` form, as a refusal names it (`select item ...`).
    select_item, SELECT_ITEM_FORMS, SelectItem, "select item",
    SelectItem::UnnamedExpr(..) => "unnamed expr",
    SelectItem::ExprWithAlias { .. } => "expr with alias",
    SelectItem::ExprWithAliases { .. } => "expr with aliases",
    SelectItem::QualifiedWildcard(..) => "qualified wildcard",
    SelectItem::Wildcard(..) => "wildcard",
}
