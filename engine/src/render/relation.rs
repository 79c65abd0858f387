//! Rendering a `RelationPlan` into differential collections of rows and errors.
//!
//! Every plan node yields a pair `(oks, errs)`. Errors are data: a scalar that
//! fails to evaluate sends its row's error to `errs` and the row nowhere. A
//! node propagates each input's `errs` exactly once (a join concatenates its
//! inputs' errors once, not once per path), so error multiplicities mean what
//! `mz_compute_error_counts` says they mean.
//!
//! This file holds the walk over the plan; joins, reduces and the delta
//! join are rendered by their own files beside it.

use timely::dataflow::Scope;

use super::collections::{self, constant, split};
use super::delta_join;
use super::inputs::{arity, Inputs};
use super::join;
use super::recursive;
use super::reduce;
use super::window;
use crate::mutation;
use crate::plan::{RelationPlan, Ties};
use crate::recursion::grown;
use crate::repr::{DataflowError, Diff, Row, Timestamp};
use crate::typedefs::{Errs, Oks};

/// Renders `plan` at `as_of` on worker `worker`.
pub fn render<'s>(
    scope: Scope<'s, Timestamp>,
    plan: &RelationPlan,
    inputs: &Inputs<'s>,
    as_of: Timestamp,
    worker: usize,
) -> (Oks<'s>, Errs<'s>) {
    grown(|| render_within(scope, plan, inputs, as_of, worker))
}

/// One level of [`render`]: the plan's root, its inputs rendered by
/// [`render`] (the plan nests at most `RECURSION_LIMIT` levels, each
/// rendered on a stack grown as it needs).
fn render_within<'s>(
    scope: Scope<'s, Timestamp>,
    plan: &RelationPlan,
    inputs: &Inputs<'s>,
    as_of: Timestamp,
    worker: usize,
) -> (Oks<'s>, Errs<'s>) {
    match plan {
        RelationPlan::Get(id) => {
            let (oks, errs) = inputs
                .collections
                .get(id)
                .unwrap_or_else(|| panic!("dataflow has no import for {id}"));
            (oks.clone(), errs.clone())
        }
        RelationPlan::Constant { rows, .. } => {
            let rows = if worker == 0 {
                rows.clone()
            } else {
                Vec::new()
            };
            (
                constant(scope, rows, as_of),
                constant(scope, Vec::new(), as_of),
            )
        }
        RelationPlan::FlatMap { input, func, exprs } => {
            let input = render(scope, input, inputs, as_of, worker);
            collections::flat_map(input, func, exprs)
        }
        RelationPlan::Map { input, exprs } => {
            collections::map(render(scope, input, inputs, as_of, worker), exprs)
        }
        RelationPlan::Filter { input, predicates } => {
            collections::filter(render(scope, input, inputs, as_of, worker), predicates)
        }
        RelationPlan::Project { input, columns } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            (collections::project(oks, columns), errs)
        }
        RelationPlan::Join {
            inputs: plans,
            equivalences,
        } => {
            if let Some(delta) = delta_join::render(plans, equivalences, inputs, as_of) {
                return delta;
            }
            let order: Vec<String> = (0..plans.len()).map(|i| format!("%{i}")).collect();
            inputs
                .joins
                .borrow_mut()
                .push(format!("Differential Join {}", order.join(" » ")));
            let rendered = plans
                .iter()
                .map(|p| (render(scope, p, inputs, as_of, worker), arity(p, inputs)))
                .collect();
            join::linear(rendered, equivalences)
        }
        RelationPlan::Reduce {
            input,
            group_key,
            aggregates,
            global,
        } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            reduce::render(
                scope, oks, errs, group_key, aggregates, *global, as_of, worker,
            )
        }
        RelationPlan::Distinct { input } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            (oks.distinct_core::<Diff>(), errs)
        }
        RelationPlan::Negate { input } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            (oks.negate(), errs)
        }
        RelationPlan::Threshold { input } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            (oks.threshold(|_, count: &Diff| (*count).max(0)), errs)
        }
        RelationPlan::EquiJoin { left, right, .. } => {
            let left = render(scope, left, inputs, as_of, worker);
            let right = render(scope, right, inputs, as_of, worker);
            join::equi_node([left, right], plan)
        }
        RelationPlan::TopK {
            input,
            group_key,
            order_by,
            limit,
            offset,
        } => {
            // Materialize folds a constant's top-k, ordering ties otherwise.
            let ties = match input.is_constant() {
                true => Ties::Encoded,
                false => Ties::Datums,
            };
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            let (group_key, order_by) = (group_key.clone(), order_by.clone());
            let (limit, offset) = (*limit, *offset);
            let results = oks
                .map(move |row| (group_key.iter().map(|c| row[*c].clone()).collect(), row))
                .reduce(
                    move |_key: &Row,
                          rows: &[(&Row, Diff)],
                          out: &mut Vec<(Result<Row, DataflowError>, Diff)>| {
                        reduce::top_k(rows, (&order_by, ties), limit, offset, out)
                    },
                )
                .map(|(_key, result)| result);
            split(results, errs)
        }
        // Lowering drops it; a plan rendered without lowering reads it as is.
        RelationPlan::Derived { input, .. } => render(scope, input, inputs, as_of, worker),
        RelationPlan::Window { input, window } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            window::render(oks, errs, window)
        }
        RelationPlan::Let { id, value, body } => {
            let (rows, value_errs) = render(scope, value, inputs, as_of, worker);
            inputs.bind(*id, Some(rows));
            let (oks, errs) = render(scope, body, inputs, as_of, worker);
            inputs.bind(*id, None);
            // The value's errors once, however often the body reads it.
            (oks, value_errs.concat(errs))
        }
        RelationPlan::LetRec { ids, values, body } => {
            let outside = |p: &RelationPlan| render(scope, p, inputs, as_of, worker);
            let bindings = recursive::render(scope, (ids, values), inputs, as_of, &outside);
            let mut errs = Vec::new();
            for (id, (rows, binding_errs)) in ids.iter().zip(bindings) {
                inputs.bind(*id, Some(rows));
                errs.push(binding_errs);
            }
            let (oks, body_errs) = render(scope, body, inputs, as_of, worker);
            ids.iter().for_each(|id| inputs.bind(*id, None));
            if mutation::recursion_drops_binding_errors() {
                return (oks, body_errs);
            }
            // Each binding's errors once, however often the body reads it.
            (
                oks,
                errs.into_iter().fold(body_errs, |all, e| all.concat(e)),
            )
        }
        RelationPlan::Local { id, .. } => {
            let rows = inputs.locals.borrow()[id]
                .last()
                .unwrap_or_else(|| panic!("no Let binds {id}"))
                .clone();
            (rows, constant(scope, Vec::new(), as_of))
        }
        RelationPlan::Union { inputs: plans } => {
            let mut rendered = plans
                .iter()
                .map(|p| render(scope, p, inputs, as_of, worker));
            let first = rendered.next().expect("a union has inputs");
            rendered.fold(first, |(oks, errs), (o, e)| (oks.concat(o), errs.concat(e)))
        }
    }
}
