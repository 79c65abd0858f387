//! How a finished query's rows are ordered and cut: the ORDER BY
//! columns, SQL's comparison of rows under them, and the LIMIT / OFFSET
//! applied after a read or planned as a top-k inside a view.

use super::RelationPlan;
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

/// How a finished SELECT's rows are ordered and cut, applied after the read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Finishing {
    pub order_by: Vec<OrderColumn>,
    pub limit: Option<usize>,
    pub offset: usize,
    /// The output's types, to show a `char` padded by (`repr::chars::shown`).
    pub shown: Vec<ScalarType>,
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
        let rows = keyed.into_iter().map(|(_, row)| row);
        let rows = rows.skip(self.offset).map(|row| pad_row(row, &self.shown));
        match self.limit {
            Some(limit) => rows.take(limit).collect(),
            None => rows.collect(),
        }
    }
}

/// `plan` cut by `finishing`'s LIMIT and OFFSET into a top-k, if it has
/// either (the order alone changes no set of rows).
pub fn with_top_k(plan: RelationPlan, finishing: Finishing) -> RelationPlan {
    let Finishing {
        order_by,
        limit,
        offset,
        shown: _,
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
