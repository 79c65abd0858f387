//! `WITH MUTUALLY RECURSIVE` (`RelationPlan::LetRec`) as Materialize's
//! compute layer renders it (`render_recursive_plan`): an iterative scope
//! whose time is the outer time and a round, one `Variable` of rows and one
//! of errors per binding, each starting empty.
//!
//! In each round the bindings are rendered in order: a binding reads this
//! round's value of the bindings before it and the last round's of itself
//! and those after it. A binding's rows, consolidated, feed the next round;
//! its errors feed it distinct, so an error that recurs every round does not
//! keep the loop going. The loop ends when no binding changes, and each
//! binding's value leaves the scope for the body to read.
//!
//! What does not read a binding is rendered once outside the loop (by
//! `outside`, the caller's `relation::render`, where an import is read as
//! everywhere else) and entered; what does is rendered here, over the nodes
//! `RelationPlan::loop_refusal` lets through.
//!
//! Materialize runs a loop that never converges for ever. The engine stops
//! it after [`ROUNDS`] rounds: a binding's changes in that round go to its
//! errors as a refusal (`unsupported: ...`) instead of the next round, so
//! the loop ends and every read of it fails with that text.

use std::collections::BTreeMap;

use differential_dataflow::operators::iterate::Variable;
use differential_dataflow::AsCollection;
use timely::dataflow::operators::core::OkErr;
use timely::dataflow::Scope;
use timely::order::Product;

use super::collections::{self, constant};
use super::inputs::{arity, Inputs};
use super::join::{self, Errs, Oks};
use crate::plan::RelationPlan;
use crate::recursion::grown;
use crate::repr::{unsupported, DataflowError, Diff, Timestamp};

/// A time inside the loop: the outer time, and the round.
type Round = Product<Timestamp, u64>;

/// The rounds after which a loop that has not converged stops with a
/// refusal (docs/semantics.md, "WITH MUTUALLY RECURSIVE").
pub const ROUNDS: u64 = 1000;

/// The text a loop stopped after [`ROUNDS`] rounds fails with.
pub fn not_converged() -> String {
    unsupported(format!(
        "WITH MUTUALLY RECURSIVE that has not converged after {ROUNDS} rounds"
    ))
}

/// The renderer of a plan outside the loop, at the outer scope's time.
pub type Outside<'a, 's> = dyn Fn(&RelationPlan) -> (Oks<'s, Timestamp>, Errs<'s, Timestamp>) + 'a;

/// Each binding's rows and errors once the loop has converged, in the
/// order of `ids`.
pub fn render<'s>(
    scope: Scope<'s, Timestamp>,
    (ids, values): (&[usize], &[RelationPlan]),
    inputs: &Inputs<'s>,
    as_of: Timestamp,
    outside: &Outside<'_, 's>,
) -> Vec<(Oks<'s, Timestamp>, Errs<'s, Timestamp>)> {
    scope.iterative::<u64, _, _>(|inner| {
        let step = Product::new(Timestamp::default(), 1);
        let mut variables = Vec::new();
        let mut cx = Loop {
            inner,
            outer: scope,
            inputs,
            as_of,
            outside,
            bound: BTreeMap::new(),
        };
        for id in ids {
            let (rows_v, rows) = Variable::new(inner, step);
            let (errs_v, errs) = Variable::new(inner, step);
            cx.bound.insert(*id, (rows, Some(errs)));
            variables.push((rows_v, errs_v));
        }
        let mut left = Vec::new();
        for ((id, value), (rows_v, errs_v)) in ids.iter().zip(values).zip(variables) {
            let (rows, errs) = cx.render(value);
            let (next, stopped) = rounds(rows.clone().consolidate(), ROUNDS);
            // Once each: a retraction past the bound is an error too, and a
            // negative count would cancel the error it fed back the round
            // before, which then comes back, round after round.
            let stopped = stopped
                .map(|_| DataflowError(not_converged()))
                .threshold(|_, count: &Diff| Diff::from(*count != 0));
            rows_v.set(next);
            errs_v.set(errs.clone().concat(stopped).distinct_core::<Diff>());
            cx.bound.insert(*id, (rows.clone(), Some(errs.clone())));
            left.push((rows.leave(scope), errs.leave(scope)));
        }
        left
    })
}

/// The changes of the rounds before `limit` (counting from 1), and those of
/// round `limit` and after, which go to no next round.
fn rounds<'i, D: timely::ExchangeData>(
    rows: differential_dataflow::VecCollection<'i, Round, D, Diff>,
    limit: u64,
) -> (
    differential_dataflow::VecCollection<'i, Round, D, Diff>,
    differential_dataflow::VecCollection<'i, Round, D, Diff>,
) {
    let (within, over) = rows
        .inner
        .ok_err(move |(d, time, diff)| match time.inner + 1 >= limit {
            true => Err((d, time, diff)),
            false => Ok((d, time, diff)),
        });
    (within.as_collection(), over.as_collection())
}

/// Rendering inside one loop: the bindings (and the `Let`s inside them) in
/// scope, each with its errors when a read of it carries them.
struct Loop<'i, 's, 'a> {
    inner: Scope<'i, Round>,
    outer: Scope<'s, Timestamp>,
    inputs: &'a Inputs<'s>,
    as_of: Timestamp,
    outside: &'a Outside<'a, 's>,
    bound: BTreeMap<usize, (Oks<'i, Round>, Option<Errs<'i, Round>>)>,
}

impl<'i> Loop<'i, '_, '_> {
    fn render(&mut self, plan: &RelationPlan) -> (Oks<'i, Round>, Errs<'i, Round>) {
        let ids = self.bound.keys().copied().collect();
        if !plan.reads_loop(&ids) {
            let (rows, errs) = (self.outside)(plan);
            return (rows.enter(self.inner), errs.enter(self.inner));
        }
        grown(|| self.render_within(plan))
    }

    fn no_errors(&self) -> Errs<'i, Round> {
        constant(self.outer, Vec::new(), self.as_of).enter(self.inner)
    }

    fn render_within(&mut self, plan: &RelationPlan) -> (Oks<'i, Round>, Errs<'i, Round>) {
        match plan {
            RelationPlan::Local { id, .. } => {
                let (rows, errs) = self.bound[id].clone();
                (rows, errs.unwrap_or_else(|| self.no_errors()))
            }
            RelationPlan::Let { id, value, body } => {
                let (rows, value_errs) = self.render(value);
                let shadowed = self.bound.insert(*id, (rows, None));
                let (oks, errs) = self.render(body);
                match shadowed {
                    Some(s) => self.bound.insert(*id, s),
                    None => self.bound.remove(id),
                };
                (oks, value_errs.concat(errs))
            }
            RelationPlan::Map { input, exprs } => collections::map(self.render(input), exprs),
            RelationPlan::FlatMap { input, func, exprs } => {
                collections::flat_map(self.render(input), func, exprs)
            }
            RelationPlan::Filter { input, predicates } => {
                collections::filter(self.render(input), predicates)
            }
            RelationPlan::Project { input, columns } => {
                let (oks, errs) = self.render(input);
                (collections::project(oks, columns), errs)
            }
            RelationPlan::Distinct { input } => {
                let (oks, errs) = self.render(input);
                (oks.distinct_core::<Diff>(), errs)
            }
            RelationPlan::Negate { input } => {
                let (oks, errs) = self.render(input);
                (oks.negate(), errs)
            }
            RelationPlan::Threshold { input } => {
                let (oks, errs) = self.render(input);
                (oks.threshold(|_, count: &Diff| (*count).max(0)), errs)
            }
            RelationPlan::Union { inputs: plans } => {
                let mut rendered = plans.iter().map(|p| self.render(p)).collect::<Vec<_>>();
                let first = rendered.remove(0);
                rendered
                    .into_iter()
                    .fold(first, |(oks, errs), (o, e)| (oks.concat(o), errs.concat(e)))
            }
            RelationPlan::Join {
                inputs: plans,
                equivalences,
            } => {
                let order: Vec<String> = (0..plans.len()).map(|i| format!("%{i}")).collect();
                self.inputs
                    .joins
                    .borrow_mut()
                    .push(format!("Differential Join {}", order.join(" » ")));
                let rendered = plans
                    .iter()
                    .map(|p| (self.render(p), arity(p, self.inputs)))
                    .collect();
                join::linear(rendered, equivalences)
            }
            RelationPlan::Derived { input, .. } => self.render(input),
            RelationPlan::EquiJoin { left, right, .. } => {
                let sides = [self.render(left), self.render(right)];
                join::equi_node(sides, plan)
            }
            plan => panic!(
                "the planner refuses this over a recursive binding: {:?}",
                plan.loop_refusal(&self.bound.keys().copied().collect())
            ),
        }
    }
}
