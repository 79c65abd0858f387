//! How a finished query's rows are ordered and cut: the ORDER BY
//! columns, SQL's comparison of rows under them, and the LIMIT / OFFSET
//! applied after a read or planned as a top-k inside a view.

use super::{RelationPlan, ScalarExpr};
use crate::repr::array::Array;
use crate::repr::chars::pad_row;
use crate::repr::{result_order, Datum, Row, ScalarType};

/// One `ORDER BY` column: ascending or descending, with NULLs first or last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderColumn {
    pub column: usize,
    pub descending: bool,
    /// PostgreSQL's default: NULLs sort as if larger than every value, so
    /// last when ascending and first when descending.
    pub nulls_last: bool,
}

impl OrderColumn {
    /// `column` in the given direction with PostgreSQL's default NULL placement.
    pub fn new(column: usize, descending: bool) -> OrderColumn {
        OrderColumn {
            column,
            descending,
            nulls_last: !descending,
        }
    }
}

/// Compares two rows by `order`, as SQL's ORDER BY does: NULL placement is
/// explicit, not the derived order of `Datum` (which puts NULL first and is
/// the runner's presentation order).
pub fn compare_rows(order: &[OrderColumn], a: &[Datum], b: &[Datum]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    for o in order {
        let (x, y) = (&a[o.column], &b[o.column]);
        let ordering = match (x == &Datum::Null, y == &Datum::Null) {
            (true, true) => Ordering::Equal,
            (true, false) if o.nulls_last => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, true) if o.nulls_last => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) if o.descending => y.sql_cmp(x),
            (false, false) => x.sql_cmp(y),
        };
        if ordering.is_ne() {
            return ordering;
        }
    }
    Ordering::Equal
}

/// How a top-k orders the rows its ORDER BY leaves tied, as Materialize's
/// do (docs/semantics.md, "Top-k").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// Its `Datum`s column by column, NULL after every value: the rendered
    /// top-k (`render/top_k.rs`, `compare_columns(.., || left.cmp(right))`
    /// over the decoded datums).
    Datums,
    /// The order of the rows' encodings (`repr::result_order`): the top-k
    /// of a constant, which its optimizer folds (`fold_topk_constant`,
    /// `Row: Ord`).
    Encoded,
}

impl Ties {
    /// Orders two rows tied under the ORDER BY; rows still tied then (a
    /// `-0` beside a `0`) in the derived order, the same on every run.
    pub fn compare(self, a: &[Datum], b: &[Datum]) -> std::cmp::Ordering {
        let first = match self {
            Ties::Datums => {
                let datums = a.iter().zip(b);
                datums.fold(std::cmp::Ordering::Equal, |o, (x, y)| {
                    o.then_with(|| datum_order(x, y))
                })
            }
            Ties::Encoded => {
                result_order::compare(&result_order::encode(a), &result_order::encode(b))
            }
        };
        first.then_with(|| a.cmp(b))
    }
}

/// Materialize's order of two datums of one column: its `Datum` puts NULL
/// last; values compare as SQL compares them. It is the order of an
/// array's or a list's elements (`Array::element_cmp`), one definition.
pub fn datum_order(x: &Datum, y: &Datum) -> std::cmp::Ordering {
    Array::element_cmp(x, y)
}

/// What an order-sensitive aggregate reads beyond its first argument, as
/// Materialize's record of the value and the ORDER BY keys
/// (`plan_aggregate_common`): `string_agg`'s separator in `args`, then the
/// keys of the call's `ORDER BY`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ordered {
    pub args: Vec<ScalarExpr>,
    pub order_by: Vec<SortKey>,
}

impl Ordered {
    /// Every expression read, arguments then keys.
    pub fn exprs(&self) -> impl Iterator<Item = &ScalarExpr> {
        let keys = self.order_by.iter().map(|k| &k.expr);
        self.args.iter().chain(keys)
    }
}

/// One key of an aggregate's `ORDER BY`: an expression over the reduce's
/// input, its direction and where its NULLs go.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortKey {
    pub expr: ScalarExpr,
    pub descending: bool,
    pub nulls_last: bool,
}

/// How a finished SELECT's rows are ordered and cut, applied after the read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Finishing {
    pub order_by: Vec<OrderColumn>,
    pub limit: Option<usize>,
    pub offset: usize,
    /// The output's types, to show a `char` padded by (`repr::chars::shown`).
    pub shown: Vec<ScalarType>,
    /// How many of the plan's columns are the output, when ORDER BY sorts
    /// by more after them (Materialize's finishing's `project`): those are
    /// dropped once the rows are ordered and cut.
    pub project: Option<usize>,
}

impl Finishing {
    /// Applies ORDER BY, then OFFSET, then LIMIT. Rows the ORDER BY leaves
    /// tied, and all rows without one, come in the real system's order of
    /// its encoded rows (`repr::result_order`), as its adapter hands them
    /// out.
    pub fn apply(&self, rows: Vec<Row>) -> Vec<Row> {
        let mut keyed: Vec<(Vec<u8>, Row)> = rows
            .into_iter()
            .map(|r| (result_order::encode(&r), r))
            .collect();
        keyed.sort_by(|(ka, a), (kb, b)| {
            compare_rows(&self.order_by, a, b).then_with(|| result_order::compare(ka, kb))
        });
        let rows = keyed.into_iter().map(|(_, mut row)| {
            row.truncate(self.project.unwrap_or(row.len()));
            row
        });
        let rows = rows.skip(self.offset).map(|row| pad_row(row, &self.shown));
        match self.limit {
            Some(limit) => rows.take(limit).collect(),
            None => rows.collect(),
        }
    }
}

/// `plan` cut by `finishing`'s LIMIT and OFFSET into a top-k, if it has
/// either (the order alone changes no set of rows), without the columns
/// only its ORDER BY sorts by.
pub fn with_top_k(plan: RelationPlan, finishing: Finishing) -> RelationPlan {
    let project = finishing.project;
    let plan = top_k(plan, finishing);
    match project {
        Some(width) => RelationPlan::Project {
            input: Box::new(plan),
            columns: (0..width).collect(),
        },
        None => plan,
    }
}

fn top_k(plan: RelationPlan, finishing: Finishing) -> RelationPlan {
    let Finishing {
        order_by,
        limit,
        offset,
        shown: _,
        project: _,
    } = finishing;
    match limit.is_some() || offset > 0 {
        true => RelationPlan::TopK {
            input: Box::new(plan),
            group_key: Vec::new(),
            order_by,
            limit,
            offset,
        },
        false => plan,
    }
}
