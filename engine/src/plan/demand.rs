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
//! is a constant error fails to every read). Where it cannot tell what a node reads of
//! its input (a `Distinct`, a `Threshold`, a window, a `Let`'s value), it
//! demands every column, and everything below is computed as written: the
//! engine may then report an error Materialize's finer analysis drops
//! (docs/semantics.md, "Known differences (open)").

use std::collections::BTreeSet;

use super::{Aggregate, RelationPlan, ScalarExpr};
use crate::recursion::grown;
use crate::repr::{Datum, GlobalId};

/// The number of columns a catalog relation has.
pub type Arities<'a> = &'a dyn Fn(GlobalId) -> usize;

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
    /// replaced by a NULL literal.
    pub fn demanded(self, demand: &BTreeSet<usize>, arities: Arities<'_>) -> RelationPlan {
        grown(|| self.demanded_inner(demand, arities))
    }

    fn demanded_inner(self, demand: &BTreeSet<usize>, arities: Arities<'_>) -> RelationPlan {
        // A constant is folded whole, errors and all, before anything is
        // pushed down (a constant view fails at its creation in Materialize).
        if self.is_constant() {
            return self;
        }
        let all = |p: &RelationPlan| (0..p.arity(arities)).collect::<BTreeSet<_>>();
        match self {
            leaf @ (RelationPlan::Get(_)
            | RelationPlan::Constant { .. }
            | RelationPlan::Local { .. }) => leaf,
            RelationPlan::Map { input, exprs } => {
                let width = input.arity(arities);
                let mut needed = demand.clone();
                // From the last expression down: one read by a later one,
                // or demanded, reads its own columns.
                let mut exprs: Vec<_> = exprs.into_iter().enumerate().collect();
                for (j, e) in exprs.iter_mut().rev() {
                    match needed.contains(&(width + *j)) {
                        true => needed.extend(columns_read(e)),
                        false => *e = null(),
                    }
                }
                let exprs = exprs.into_iter().map(|(_, e)| e).collect();
                let below = needed.into_iter().filter(|c| *c < width).collect();
                RelationPlan::Map {
                    input: Box::new(input.demanded(&below, arities)),
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
                    input: Box::new(input.demanded(&needed, arities)),
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
                    input: Box::new(input.demanded(&needed, arities)),
                    predicates,
                }
            }
            RelationPlan::Project { input, columns } => {
                let needed = demand.iter().map(|c| columns[*c]).collect();
                RelationPlan::Project {
                    input: Box::new(input.demanded(&needed, arities)),
                    columns,
                }
            }
            RelationPlan::Join {
                inputs,
                equivalences,
            } => {
                let mut needed = demand.clone();
                needed.extend(equivalences.iter().flatten().copied());
                let mut start = 0;
                let inputs = inputs
                    .into_iter()
                    .map(|p| {
                        let width = p.arity(arities);
                        let own = needed
                            .range(start..start + width)
                            .map(|c| c - start)
                            .collect();
                        start += width;
                        p.demanded(&own, arities)
                    })
                    .collect();
                RelationPlan::Join {
                    inputs,
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
                    input: Box::new(input.demanded(&needed, arities)),
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
                let input = input.demanded(&needed, arities);
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
                    .map(|p| p.demanded(demand, arities))
                    .collect(),
            },
            RelationPlan::Negate { input } => RelationPlan::Negate {
                input: Box::new(input.demanded(demand, arities)),
            },
            RelationPlan::Let { id, value, body } => {
                let value_demand = all(&value);
                RelationPlan::Let {
                    id,
                    value: Box::new(value.demanded(&value_demand, arities)),
                    body: Box::new(body.demanded(demand, arities)),
                }
            }
            // A binding reads itself and the others: all of each is read.
            RelationPlan::LetRec { ids, values, body } => RelationPlan::LetRec {
                ids,
                values: values
                    .into_iter()
                    .map(|v| {
                        let every = all(&v);
                        v.demanded(&every, arities)
                    })
                    .collect(),
                body: Box::new(body.demanded(demand, arities)),
            },
            // Every column of the input decides these (a `Distinct`, a
            // `Threshold`, a window), or the engine does not follow what
            // the node reads (an `EquiJoin`): all are read.
            other => {
                let every = |p: RelationPlan| {
                    let columns = all(&p);
                    Ok::<_, std::convert::Infallible>(p.demanded(&columns, arities))
                };
                match other.try_map_inputs(every) {
                    Ok(plan) => plan,
                    Err(never) => match never {},
                }
            }
        }
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
