//! The plan's generic walks over its direct inputs: whether it reads a
//! relation, and the same plan with each input mapped; every pass that
//! rewrites a plan a node at a time goes through `try_map_inputs`.

use super::RelationPlan;
use crate::recursion::grown;
use crate::repr::GlobalId;

impl RelationPlan {
    /// Whether any relation this plan reads directly satisfies `pred`.
    pub fn reads_any(&self, pred: &dyn Fn(GlobalId) -> bool) -> bool {
        grown(|| match self {
            RelationPlan::Get(id) => pred(*id),
            plan => plan.inputs().into_iter().any(|i| i.reads_any(pred)),
        })
    }

    /// The same plan with `f` applied to each direct input (a `Get`, a
    /// `Constant` and a `Local` have none and come back
    /// as they are; a `Let`'s are its value and its body).
    pub fn try_map_inputs<E>(
        self,
        mut f: impl FnMut(RelationPlan) -> Result<RelationPlan, E>,
    ) -> Result<RelationPlan, E> {
        let mut boxed = |p: Box<RelationPlan>| f(*p).map(Box::new);
        Ok(match self {
            plan @ (RelationPlan::Get(_)
            | RelationPlan::Constant { .. }
            | RelationPlan::Local { .. }) => plan,
            RelationPlan::Map { input, exprs } => RelationPlan::Map {
                input: boxed(input)?,
                exprs,
            },
            RelationPlan::FlatMap { input, func, exprs } => RelationPlan::FlatMap {
                input: boxed(input)?,
                func,
                exprs,
            },
            RelationPlan::Filter { input, predicates } => RelationPlan::Filter {
                input: boxed(input)?,
                predicates,
            },
            RelationPlan::Project { input, columns } => RelationPlan::Project {
                input: boxed(input)?,
                columns,
            },
            RelationPlan::Join {
                inputs,
                equivalences,
            } => RelationPlan::Join {
                inputs: inputs
                    .into_iter()
                    .map(|i| boxed(Box::new(i)).map(|b| *b))
                    .collect::<Result<_, _>>()?,
                equivalences,
            },
            RelationPlan::Union { inputs } => RelationPlan::Union {
                inputs: inputs
                    .into_iter()
                    .map(|i| boxed(Box::new(i)).map(|b| *b))
                    .collect::<Result<_, _>>()?,
            },
            RelationPlan::Let { id, value, body } => RelationPlan::Let {
                id,
                value: boxed(value)?,
                body: boxed(body)?,
            },
            RelationPlan::LetRec { ids, values, body } => RelationPlan::LetRec {
                ids,
                values: values
                    .into_iter()
                    .map(|v| boxed(Box::new(v)).map(|b| *b))
                    .collect::<Result<_, _>>()?,
                body: boxed(body)?,
            },
            RelationPlan::Reduce {
                input,
                group_key,
                aggregates,
                global,
            } => RelationPlan::Reduce {
                input: boxed(input)?,
                group_key,
                aggregates,
                global,
            },
            RelationPlan::Distinct { input } => RelationPlan::Distinct {
                input: boxed(input)?,
            },
            RelationPlan::Negate { input } => RelationPlan::Negate {
                input: boxed(input)?,
            },
            RelationPlan::Threshold { input } => RelationPlan::Threshold {
                input: boxed(input)?,
            },
            RelationPlan::Derived {
                input,
                computed,
                site,
            } => RelationPlan::Derived {
                input: boxed(input)?,
                computed,
                site,
            },
            RelationPlan::Window { input, window } => RelationPlan::Window {
                input: boxed(input)?,
                window,
            },
            RelationPlan::EquiJoin {
                left,
                right,
                left_key,
                right_key,
                arities,
                kind,
                nulls_match,
            } => RelationPlan::EquiJoin {
                left: boxed(left)?,
                right: boxed(right)?,
                left_key,
                right_key,
                arities,
                kind,
                nulls_match,
            },
            RelationPlan::TopK {
                input,
                group_key,
                order_by,
                limit,
                offset,
            } => RelationPlan::TopK {
                input: boxed(input)?,
                group_key,
                order_by,
                limit,
                offset,
            },
        })
    }
}
