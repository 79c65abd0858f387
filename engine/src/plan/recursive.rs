//! Which part of a `LetRec`'s bindings runs inside its loop, and what the
//! loop does not render: the one answer the planner refuses by and the
//! renderer (`render::recursive`) renders by.
//!
//! A node is in the loop when it reads a binding, directly or through a
//! `Let` whose value does; the rest is rendered once outside and entered.
//! Inside, the loop renders maps, flat maps, filters, projections, unions, negations,
//! thresholds, distincts, joins and `Let`s; an aggregate, a top-k, a window
//! function or another `WITH MUTUALLY RECURSIVE` over a binding is refused
//! by name, as the engine has not built them at the loop's time.

use std::collections::BTreeSet;

use super::RelationPlan;
use crate::recursion::grown;
use crate::repr::unsupported;

impl RelationPlan {
    /// Whether the plan reads any of `ids` (a `Local`), directly or through
    /// a `Let` inside it whose value does.
    pub fn reads_loop(&self, ids: &BTreeSet<usize>) -> bool {
        grown(|| match self {
            RelationPlan::Local { id, .. } => ids.contains(id),
            RelationPlan::Let { value, .. } if value.reads_loop(ids) => true,
            plan => plan.inputs().into_iter().any(|p| p.reads_loop(ids)),
        })
    }

    /// The first construct over the bindings `ids` that the loop does not
    /// render, refused by name.
    pub fn loop_refusal(&self, ids: &BTreeSet<usize>) -> Option<String> {
        if !self.reads_loop(ids) {
            return None;
        }
        let refused = |what: &str| {
            Some(unsupported(format!(
                "{what} over a WITH MUTUALLY RECURSIVE binding"
            )))
        };
        grown(|| match self {
            RelationPlan::Reduce { .. } => refused("an aggregate or GROUP BY"),
            RelationPlan::TopK { .. } => refused("ORDER BY with LIMIT or OFFSET"),
            RelationPlan::Window { .. } => refused("a window function"),
            RelationPlan::LetRec { .. } => refused("WITH MUTUALLY RECURSIVE"),
            RelationPlan::Let { id, value, body } => {
                let mut inner = ids.clone();
                if value.reads_loop(ids) {
                    inner.insert(*id);
                }
                value
                    .loop_refusal(ids)
                    .or_else(|| body.loop_refusal(&inner))
            }
            plan => plan.inputs().into_iter().find_map(|p| p.loop_refusal(ids)),
        })
    }
}

/// The bindings some value reads at or before its own place, so the last
/// round's rows: Materialize's `recursive_ids`, whose every column its
/// projection pushdown demands.
pub(super) fn recursive_ids(ids: &[usize], values: &[RelationPlan]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for (i, value) in values.iter().enumerate() {
        out.extend(ids[i..].iter().filter(|id| value.reads_local(**id)));
    }
    out
}
