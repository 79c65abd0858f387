//! Every join form onto the FROM so far: inner joins (`JOIN`, `CROSS
//! JOIN`) merge into the FROM's one join; LEFT, RIGHT and FULL joins make
//! the current FROM item's relations (the join's left side) and the new
//! one an `EquiJoin`; `ON` is a condition over the current item's columns,
//! `USING (...)` and `NATURAL` equalities of same-named columns, which
//! the join then lists once, first (the left's column for INNER and LEFT,
//! the right's for RIGHT, their COALESCE for FULL), as PostgreSQL and the
//! real system do.

use std::collections::BTreeSet;
use std::ops::Range;

use sqlparser::ast::{Expr, Join, JoinConstraint, JoinOperator, TableFactor};

use super::super::super::expr::{equality, ExprContext, Outer, ScopeItem, Typed};
use super::super::super::{forms, ident};
use super::super::Planner;
use super::From;
use crate::plan::{columns_read, BinaryOp, JoinKind, RelationPlan, ScalarExpr};
use crate::recursion::{recursion_limit_error, RECURSION_LIMIT};
use crate::repr::{unsupported, Column, UNSUPPORTED};

impl From {
    /// Plans `join` onto the current FROM item.
    pub(super) fn join(
        &mut self,
        planner: &Planner,
        join: &Join,
        outer: Option<&dyn Outer>,
    ) -> Result<(), String> {
        let (kind, constraint) = join_kind(&join.join_operator)?;
        if let (
            JoinKind::Left,
            TableFactor::Derived {
                lateral: true,
                subquery,
                alias,
                sample: None,
            },
        ) = (kind, &join.relation)
        {
            let JoinConstraint::On(on) = constraint else {
                return Err(unsupported("LEFT JOIN LATERAL other than with ON"));
            };
            return self.left_lateral(planner, subquery, alias.as_ref(), on, outer);
        }
        let left = self.chain.1..self.scope.items.len();
        let left_star = self.scope.star[self.chain.2..].to_vec();
        self.add(planner, &join.relation, kind, outer)?;
        let right = left.end..self.scope.items.len();
        let names = match constraint {
            JoinConstraint::On(e) => {
                let on = self.on(e, outer)?;
                if kind == JoinKind::Inner {
                    self.predicates.extend(on);
                    return Ok(());
                }
                let pairs = key_pairs(&on, &left, &right).ok_or_else(|| {
                    unsupported(format!(
                        "{} JOIN ON other than equalities of a column of each side",
                        kind_name(kind)
                    ))
                })?;
                return self.outer_join(kind, &pairs, (&left, &right), &[]);
            }
            JoinConstraint::Using(names) => names
                .iter()
                .map(|n| match n.0.as_slice() {
                    [part] => part.as_ident().map(ident),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| unsupported("USING a qualified name"))?,
            JoinConstraint::Natural => self.common_names(&left_star, &right),
            JoinConstraint::None if kind == JoinKind::Inner => return Ok(()),
            JoinConstraint::UsingAlias(..) => return Err(unsupported("USING ... AS alias")),
            JoinConstraint::None => {
                return Err(unsupported(format!(
                    "{} JOIN without a condition",
                    kind_name(kind)
                )))
            }
        };
        let pairs = self.using_pairs(&names, &left, &right)?;
        let right_star = self.scope.star[self.chain.2 + left_star.len()..].to_vec();
        let merged = self.merge(kind, &pairs, &names, (&left, &right))?;
        let star = merged
            .iter()
            .copied()
            .chain(
                left_star
                    .into_iter()
                    .filter(|p| !pairs.iter().any(|(l, _)| l == p)),
            )
            .chain(
                right_star
                    .into_iter()
                    .filter(|p| !pairs.iter().any(|(_, r)| r == p)),
            );
        let star: Vec<usize> = star.collect();
        self.scope.star.truncate(self.chain.2);
        self.scope.star.extend(star);
        Ok(())
    }

    /// An ON condition over the current FROM item's columns (and the outer
    /// query's), split into its conjuncts.
    pub(super) fn on(
        &self,
        e: &Expr,
        outer: Option<&dyn Outer>,
    ) -> Result<Vec<ScalarExpr>, String> {
        let mut scope = self.scope.clone();
        scope.hidden = scope.hidden.max(self.chain.1);
        let no_aggregates = "aggregate functions are not allowed in ON clause";
        ExprContext::within(&scope, no_aggregates, outer).predicate(e, "ON clause")
    }

    /// NATURAL's columns: the left side's names (in `*` order) that the
    /// right side has too.
    fn common_names(&self, left_star: &[usize], right: &Range<usize>) -> Vec<String> {
        let items = &self.scope.items;
        let on_right = |name: &str| right.clone().any(|p| items[p].column.name == name);
        let mut names: Vec<String> = vec![];
        for p in left_star {
            let name = &items[*p].column.name;
            if items[*p].unqualified && on_right(name) && !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    }

    /// The left and right position of each USING column.
    fn using_pairs(
        &self,
        names: &[String],
        left: &Range<usize>,
        right: &Range<usize>,
    ) -> Result<Vec<(usize, usize)>, String> {
        let mut seen = BTreeSet::new();
        let mut pairs = vec![];
        for name in names {
            if !seen.insert(name) {
                // The real system's text: it refuses this as PostgreSQL does.
                return Err(format!(
                    "column name \"{name}\" appears more than once in USING clause not yet supported"
                ));
            }
            let find = |range: &Range<usize>, side: &str| {
                let items = &self.scope.items;
                let mut found = range
                    .clone()
                    .filter(|p| items[*p].unqualified && items[*p].column.name == *name);
                match (found.next(), found.next()) {
                    (Some(p), None) => Ok(p),
                    (None, _) => Err(format!(
                        "column \"{name}\" specified in USING clause does not exist in {side} table"
                    )),
                    (Some(_), Some(_)) => Err(format!(
                        "common column name \"{name}\" appears more than once in {side} table"
                    )),
                }
            };
            pairs.push((find(left, "left")?, find(right, "right")?));
        }
        Ok(pairs)
    }

    /// Joins on the USING columns and makes each pair one column: the
    /// left's for INNER and LEFT, the right's for RIGHT (the other then
    /// found only qualified), for FULL a new one, their COALESCE, that no
    /// qualified name finds. Returns the merged columns' positions.
    fn merge(
        &mut self,
        kind: JoinKind,
        pairs: &[(usize, usize)],
        names: &[String],
        sides: (&Range<usize>, &Range<usize>),
    ) -> Result<Vec<usize>, String> {
        let mut equalities = vec![];
        for ((lp, rp), name) in pairs.iter().zip(names) {
            let (l, r) = (&self.scope.items[*lp].column, &self.scope.items[*rp].column);
            let typed = |p: usize, c: &Column| Typed::of_column(ScalarExpr::Column(p), c);
            let eq = equality(typed(*lp, l), typed(*rp, r)).map_err(|e| match e {
                // A refusal stays one: the engine does not know the answer.
                e if e.starts_with(UNSUPPORTED) => e,
                _ => format!(
                    "NATURAL/USING join column \"{name}\" types {} and {} cannot be matched",
                    l.typ.name(),
                    r.typ.name()
                ),
            })?;
            if kind != JoinKind::Inner && l.typ != r.typ {
                return Err(unsupported(format!(
                    "{} JOIN USING columns of types {} and {}",
                    kind_name(kind),
                    l.typ.name(),
                    r.typ.name()
                )));
            }
            equalities.push(eq.expr);
        }
        for (l, r) in pairs {
            let hidden = match kind {
                JoinKind::Inner | JoinKind::Left => vec![*r],
                JoinKind::Right => vec![*l],
                JoinKind::Full => vec![*l, *r],
            };
            for p in hidden {
                self.scope.items[p].unqualified = false;
            }
        }
        let merged = match kind {
            JoinKind::Inner => {
                self.predicates.extend(equalities);
                pairs.iter().map(|(l, _)| *l).collect()
            }
            JoinKind::Left => pairs.iter().map(|(l, _)| *l).collect(),
            JoinKind::Right => pairs.iter().map(|(_, r)| *r).collect(),
            JoinKind::Full => {
                let end = self.scope.items.len();
                (end..end + pairs.len()).collect()
            }
        };
        if kind != JoinKind::Inner {
            let coalesced = match kind {
                JoinKind::Full => names,
                _ => &[],
            };
            self.outer_join(kind, pairs, sides, coalesced)?;
        }
        Ok(merged)
    }

    /// Makes the current FROM item (`left`) and the relation just added
    /// (`right`) one `EquiJoin` input on `pairs` of columns, with the
    /// conditions of the item's earlier inner joins inside it; for a
    /// FULL JOIN USING, each pair's COALESCE appended, named `coalesced`.
    fn outer_join(
        &mut self,
        kind: JoinKind,
        pairs: &[(usize, usize)],
        (left, right): (&Range<usize>, &Range<usize>),
        coalesced: &[String],
    ) -> Result<(), String> {
        let (right_plan, right_arity) = self.inputs.pop().expect("just added");
        let chain = self.inputs.split_off(self.chain.0);
        // A LATERAL subquery made the FROM items before this one one input
        // with it (`lateral`): this join's left side is not an input of its own.
        if chain.iter().map(|(_, n)| n).sum::<usize>() != left.len() {
            return Err(unsupported(format!(
                "{} JOIN after a LATERAL subquery that follows other FROM items",
                kind_name(kind)
            )));
        }
        // The item's own conditions go inside; those over earlier items
        // (or the outer row) alone stay; one over both only where the
        // join keeps no right row unpaired (then filtering after is alike).
        let mut inside = vec![];
        let mut stay = vec![];
        for p in std::mem::take(&mut self.predicates) {
            let read = columns_read(&p);
            if read.iter().all(|c| left.contains(c)) {
                inside.push(p.remap_columns(&|c| c - left.start));
            } else if read.iter().all(|c| *c < left.start) || kind == JoinKind::Left {
                stay.push(p);
            } else {
                return Err(unsupported(format!(
                    "a condition on earlier FROM items inside a {} JOIN",
                    kind_name(kind)
                )));
            }
        }
        self.predicates = stay;
        let left_plan = From {
            inputs: chain,
            predicates: inside,
            ..From::default()
        }
        .into_plan();
        // Each outer join nests the joins before it one level deeper: a
        // long chain is refused here, before it is built deeper.
        if left_plan.nesting() + 1 > RECURSION_LIMIT {
            return Err(recursion_limit_error());
        }
        let mut plan = RelationPlan::EquiJoin {
            left: Box::new(left_plan),
            right: Box::new(right_plan),
            left_key: pairs.iter().map(|(l, _)| l - left.start).collect(),
            right_key: pairs.iter().map(|(_, r)| r - right.start).collect(),
            arities: (left.len(), right_arity),
            kind,
            nulls_match: false,
        };
        let mut arity = left.len() + right_arity;
        if kind.keeps(true) {
            self.scope.items[left.clone()].iter_mut().for_each(nullable);
        }
        if kind.keeps(false) {
            self.scope.items[right.clone()]
                .iter_mut()
                .for_each(nullable);
        }
        if !coalesced.is_empty() {
            let mut exprs = vec![];
            for ((l, r), name) in pairs.iter().zip(coalesced) {
                let at = |p: usize| ScalarExpr::Column(p - left.start);
                exprs.push(ScalarExpr::Coalesce(vec![at(*l), at(*r)]));
                let (l, r) = (&self.scope.items[*l].column, &self.scope.items[*r].column);
                let column = Column {
                    name: name.clone(),
                    typ: l.typ,
                    nullable: l.nullable || r.nullable,
                };
                self.scope.items.push(ScopeItem {
                    table: String::new(),
                    column,
                    unqualified: true,
                });
            }
            arity += exprs.len();
            plan = RelationPlan::Map {
                input: Box::new(plan),
                exprs,
            };
        }
        self.inputs.push((plan, arity));
        Ok(())
    }
}

fn nullable(item: &mut ScopeItem) {
    item.column.nullable = true;
}

/// The join's kind and its constraint.
pub(in crate::sql::query) fn join_kind(
    op: &JoinOperator,
) -> Result<(JoinKind, &JoinConstraint), String> {
    Ok(match op {
        JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => {
            (JoinKind::Inner, c)
        }
        JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => (JoinKind::Left, c),
        JoinOperator::Right(c) | JoinOperator::RightOuter(c) => (JoinKind::Right, c),
        JoinOperator::FullOuter(c) => (JoinKind::Full, c),
        other => return Err(unsupported(forms::join_operator(other))),
    })
}

fn kind_name(kind: JoinKind) -> &'static str {
    match kind {
        JoinKind::Inner => "INNER",
        JoinKind::Left => "LEFT",
        JoinKind::Right => "RIGHT",
        JoinKind::Full => "FULL",
    }
}

/// An outer join's ON as pairs of equal columns, one of each side; `None`
/// if it is anything else.
fn key_pairs(
    on: &[ScalarExpr],
    left: &Range<usize>,
    right: &Range<usize>,
) -> Option<Vec<(usize, usize)>> {
    on.iter()
        .map(|p| match p {
            ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                (ScalarExpr::Column(a), ScalarExpr::Column(b)) => {
                    let (a, b) = (*a.min(b), *a.max(b));
                    (left.contains(&a) && right.contains(&b)).then_some((a, b))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}
