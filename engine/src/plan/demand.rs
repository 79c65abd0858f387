//! What nothing reads is not computed, as Materialize's optimizer has it:
//! a view that no index keeps is inlined into the dataflow that reads it,
//! and its projection pushdown (`transform/src/movement/
//! projection_pushdown.rs`) drops the `Map` expressions and the aggregates
//! whose columns nothing above reads, and with them their errors. So
//! `SELECT k FROM v`, `v` being `SELECT k, 10 / b AS q FROM r`, does not
//! fail where `b` is 0, and neither does `SELECT count(*) FROM v`.
//!
//! `RelationPlan::demanded` walks a lowered plan from its output down,
//! carrying the columns each node's output must have, and replaces an
//! expression or an aggregate argument that nothing demands by a NULL
//! literal, so no column moves. A constant part is left whole: Materialize
//! folds it, errors and all, before anything is pushed down (a view that
//! is a constant error fails to every read). A `Let`'s value is demanded
//! what its body reads of it. Where it does not follow what a node reads
//! of its input (a window, an `EquiJoin`, a binding that reads no later
//! one), it demands every column, and everything below is computed as
//! written: the engine may then report an error Materialize's finer
//! analysis drops (docs/semantics.md, "Known differences (open)").
//!
//! A subquery in FROM, a CTE or a binding (`RelationPlan::Derived`) whose
//! computed column is demanded there, or below a filter Materialize may
//! move under it, is refused by name: the engine cannot tell that
//! Materialize computes it, on the same rows (docs/semantics.md,
//! "Subqueries in FROM").

use std::collections::{BTreeMap, BTreeSet};

use super::{Aggregate, RelationPlan, ScalarExpr};
use crate::mutation;
use crate::recursion::grown;
use crate::repr::{unsupported, Datum, GlobalId};

/// The number of columns a catalog relation has.
pub type Arities<'a> = &'a dyn Fn(GlobalId) -> usize;

/// The refusal of reading a column of a catalog relation, if the engine
/// cannot fill it as Materialize does (`mz_tables.oid`, ...).
pub type Refusals<'a> = &'a dyn Fn(GlobalId, usize) -> Option<String>;

impl RelationPlan {
    /// The number of columns the plan produces.
    pub fn arity(&self, arities: Arities<'_>) -> usize {
        grown(|| match self {
            RelationPlan::Get(id) => arities(*id),
            RelationPlan::Constant { arity, .. } | RelationPlan::Local { arity, .. } => *arity,
            RelationPlan::FlatMap { input, func, .. } => input.arity(arities) + func.output_arity(),
            RelationPlan::Map { input, exprs } => input.arity(arities) + exprs.len(),
            RelationPlan::Filter { input, .. }
            | RelationPlan::Distinct { input }
            | RelationPlan::Negate { input }
            | RelationPlan::Threshold { input }
            | RelationPlan::TopK { input, .. } => input.arity(arities),
            RelationPlan::EquiJoin {
                arities: (l, r), ..
            } => l + r,
            RelationPlan::Let { body, .. } | RelationPlan::LetRec { body, .. } => {
                body.arity(arities)
            }
            RelationPlan::Derived { input, .. } => input.arity(arities),
            RelationPlan::Union { inputs } => inputs.first().map_or(0, |p| p.arity(arities)),
            RelationPlan::Project { columns, .. } => columns.len(),
            RelationPlan::Window { window, .. } => window.width + window.calls.len(),
            RelationPlan::Join { inputs, .. } => inputs.iter().map(|p| p.arity(arities)).sum(),
            RelationPlan::Reduce {
                group_key,
                aggregates,
                ..
            } => group_key.len() + aggregates.len(),
        })
    }

    /// The plan with every expression and aggregate argument whose column
    /// nothing reads, given that `demand` of its output columns are read,
    /// replaced by a NULL literal, and its `Derived` nodes dropped; or the
    /// refusal of a computed column of one that the engine cannot tell
    /// Materialize computes, on the same rows.
    #[cfg(test)]
    pub fn demanded(
        self,
        demand: &BTreeSet<usize>,
        arities: Arities<'_>,
    ) -> Result<RelationPlan, String> {
        self.demanded_refusing(demand, arities, &|_, _| None)
    }

    /// `demanded`, refusing a read of a relation's column that `refused`
    /// names: a column is read if the pass demands it of the relation,
    /// which it does wherever it cannot tell that nothing reads it.
    pub fn demanded_refusing(
        self,
        demand: &BTreeSet<usize>,
        arities: Arities<'_>,
        refused: Refusals<'_>,
    ) -> Result<RelationPlan, String> {
        let mut pass = Pass {
            arities,
            refused,
            locals: BTreeMap::new(),
        };
        pass.plan(self, demand, true)
    }
}

/// One demand pass: the columns each `Local` is read for so far, and
/// whether every such read is exact.
struct Pass<'a> {
    arities: Arities<'a>,
    refused: Refusals<'a>,
    locals: BTreeMap<usize, (BTreeSet<usize>, bool)>,
}

impl Pass<'_> {
    /// `plan` given that `demand` of its columns are read; `exact` says
    /// that Materialize reads exactly those, of the same rows: no node above
    /// demands more than it reads (a window, an outer join, a decorrelating
    /// join, a binding that is not recursive) and none filters rows that
    /// Materialize's predicate pushdown could move below (a `Filter`, a
    /// join's equivalences, which imply `IS NOT NULL`).
    fn plan(
        &mut self,
        plan: RelationPlan,
        demand: &BTreeSet<usize>,
        exact: bool,
    ) -> Result<RelationPlan, String> {
        grown(|| self.node(plan, demand, exact))
    }

    fn all(&self, p: &RelationPlan) -> BTreeSet<usize> {
        (0..p.arity(self.arities)).collect()
    }

    fn boxed(
        &mut self,
        plan: RelationPlan,
        demand: &BTreeSet<usize>,
        exact: bool,
    ) -> Result<Box<RelationPlan>, String> {
        self.plan(plan, demand, exact).map(Box::new)
    }

    fn node(
        &mut self,
        plan: RelationPlan,
        demand: &BTreeSet<usize>,
        exact: bool,
    ) -> Result<RelationPlan, String> {
        // A constant is folded whole, errors and all, before anything is
        // pushed down (a constant view fails at its creation in Materialize).
        if plan.is_constant() {
            return Ok(plan);
        }
        let arities = self.arities;
        Ok(match plan {
            RelationPlan::Local { id, arity } => {
                let (read, all_exact) = self.locals.entry(id).or_insert((BTreeSet::new(), true));
                read.extend(demand.iter().copied());
                *all_exact &= exact;
                RelationPlan::Local { id, arity }
            }
            RelationPlan::Get(id) => match demand.iter().find_map(|c| (self.refused)(id, *c)) {
                Some(refusal) => return Err(unsupported(refusal)),
                None => RelationPlan::Get(id),
            },
            leaf @ RelationPlan::Constant { .. } => leaf,
            RelationPlan::Derived {
                input,
                computed,
                site,
            } => match !exact && computed.iter().any(|c| demand.contains(c)) {
                true => return Err(unsupported(site.refusal())),
                false => self.plan(*input, demand, exact)?,
            },
            RelationPlan::Map { input, exprs } => {
                let width = input.arity(arities);
                let mut needed = demand.clone();
                // From the last expression down: one read by a later one,
                // or demanded, reads its own columns.
                let mut exprs: Vec<_> = exprs.into_iter().enumerate().collect();
                for (j, e) in exprs.iter_mut().rev() {
                    let read = needed.contains(&(width + *j)) || mutation::demand_ignored();
                    match read {
                        true => needed.extend(columns_read(e)),
                        false => *e = null(),
                    }
                }
                let exprs = exprs.into_iter().map(|(_, e)| e).collect();
                let below = needed.into_iter().filter(|c| *c < width).collect();
                RelationPlan::Map {
                    input: self.boxed(*input, &below, exact)?,
                    exprs,
                }
            }
            // Every row of the function counts: its arguments are read.
            RelationPlan::FlatMap { input, func, exprs } => {
                let width = input.arity(arities);
                let mut needed: BTreeSet<usize> =
                    demand.iter().copied().filter(|c| *c < width).collect();
                exprs.iter().for_each(|e| needed.extend(columns_read(e)));
                RelationPlan::FlatMap {
                    input: self.boxed(*input, &needed, exact)?,
                    func,
                    exprs,
                }
            }
            RelationPlan::Filter { input, predicates } => {
                let mut needed = demand.clone();
                predicates
                    .iter()
                    .for_each(|p| needed.extend(columns_read(p)));
                RelationPlan::Filter {
                    input: self.boxed(*input, &needed, false)?,
                    predicates,
                }
            }
            RelationPlan::Project { input, columns } => {
                let needed = demand.iter().map(|c| columns[*c]).collect();
                RelationPlan::Project {
                    input: self.boxed(*input, &needed, exact)?,
                    columns,
                }
            }
            RelationPlan::Join {
                inputs,
                equivalences,
            } => {
                let mut needed = demand.clone();
                needed.extend(equivalences.iter().flatten().copied());
                let exact = exact && equivalences.is_empty();
                let mut start = 0;
                let mut planned = Vec::with_capacity(inputs.len());
                for p in inputs {
                    let width = p.arity(arities);
                    let own = needed
                        .range(start..start + width)
                        .map(|c| c - start)
                        .collect();
                    start += width;
                    planned.push(self.plan(p, &own, exact)?);
                }
                RelationPlan::Join {
                    inputs: planned,
                    equivalences,
                }
            }
            RelationPlan::Reduce {
                input,
                group_key,
                aggregates,
                global,
            } => {
                let keys = group_key.len();
                let mut needed: BTreeSet<usize> = group_key.iter().copied().collect();
                let aggregates = aggregates
                    .into_iter()
                    .enumerate()
                    .map(|(i, a)| match demand.contains(&(keys + i)) {
                        true => {
                            needed.extend(columns_read(&a.expr));
                            needed.extend(a.ordered.exprs().flat_map(columns_read));
                            a
                        }
                        false => Aggregate::new(a.func, null(), a.distinct),
                    })
                    .collect();
                RelationPlan::Reduce {
                    input: self.boxed(*input, &needed, exact)?,
                    group_key,
                    aggregates,
                    global,
                }
            }
            RelationPlan::TopK {
                input,
                group_key,
                order_by,
                limit,
                offset,
            } => {
                let mut needed = demand.clone();
                needed.extend(group_key.iter().copied());
                needed.extend(order_by.iter().map(|o| o.column));
                let width = input.arity(arities);
                let input = self.plan(*input, &needed, exact)?;
                RelationPlan::TopK {
                    input: Box::new(unread_as_null(input, &needed, width)),
                    group_key,
                    order_by,
                    limit,
                    offset,
                }
            }
            RelationPlan::Union { inputs } => RelationPlan::Union {
                inputs: inputs
                    .into_iter()
                    .map(|p| self.plan(p, demand, exact))
                    .collect::<Result<_, _>>()?,
            },
            RelationPlan::Negate { input } => RelationPlan::Negate {
                input: self.boxed(*input, demand, exact)?,
            },
            // Its value is read for what its body reads of it, as
            // Materialize's projection pushdown harvests a `Let`'s gets.
            RelationPlan::Let { id, value, body } => {
                let prior = self.locals.remove(&id);
                let body = self.boxed(*body, demand, exact)?;
                let (read, exact) = self.locals.remove(&id).unwrap_or_default();
                if let Some(prior) = prior {
                    self.locals.insert(id, prior);
                }
                RelationPlan::Let {
                    id,
                    value: self.boxed(*value, &read, exact)?,
                    body,
                }
            }
            // Every column of a recursive binding is read, as Materialize
            // has it; one that reads no binding of a later round is read
            // for what its readers read there, which the engine does not
            // follow: all of it is read, not exactly.
            RelationPlan::LetRec { ids, values, body } => {
                let body = self.boxed(*body, demand, exact)?;
                let recursive = super::recursive::recursive_ids(&ids, &values);
                let values = ids
                    .iter()
                    .zip(values)
                    .map(|(id, v)| {
                        let every = self.all(&v);
                        self.plan(v, &every, recursive.contains(id))
                    })
                    .collect::<Result<_, _>>()?;
                ids.iter().for_each(|id| drop(self.locals.remove(id)));
                RelationPlan::LetRec { ids, values, body }
            }
            // Every column of the input decides these: all are read.
            RelationPlan::Distinct { input } => RelationPlan::Distinct {
                input: self.all_of(*input, exact)?,
            },
            RelationPlan::Threshold { input } => RelationPlan::Threshold {
                input: self.all_of(*input, exact)?,
            },
            // The engine does not follow what these read of their inputs
            // (a window, an `EquiJoin`): all are read, not exactly.
            other => other.try_map_inputs(|p| {
                let every = self.all(&p);
                self.plan(p, &every, false)
            })?,
        })
    }

    fn all_of(&mut self, input: RelationPlan, exact: bool) -> Result<Box<RelationPlan>, String> {
        let every = self.all(&input);
        self.boxed(input, &every, exact)
    }
}

/// `plan` with the columns not in `read` made NULL: Materialize's
/// projection pushdown removes them below a top-k, so they do not break
/// its ties (docs/semantics.md, "Top-k").
fn unread_as_null(plan: RelationPlan, read: &BTreeSet<usize>, width: usize) -> RelationPlan {
    if (0..width).all(|c| read.contains(&c)) {
        return plan;
    }
    let columns = (0..width)
        .map(|c| if read.contains(&c) { c } else { width })
        .collect();
    RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(plan),
            exprs: vec![null()],
        }),
        columns,
    }
}

fn null() -> ScalarExpr {
    ScalarExpr::Literal(Datum::Null)
}

/// The columns `e` reads.
pub fn columns_read(e: &ScalarExpr) -> BTreeSet<usize> {
    let read = std::cell::RefCell::new(BTreeSet::new());
    let _ = e.clone().remap_columns(&|c| {
        read.borrow_mut().insert(c);
        c
    });
    read.into_inner()
}
