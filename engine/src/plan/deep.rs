//! The plan's recursive types as trees: how deep one nests, whether a
//! plan reads a `Let` and whether it is constant, walked without recursing, and `Clone`, one level at a time on a stack grown as
//! it needs: a plan is cloned whole to every worker, and a lowered plan
//! nests up to the recursion limit with an expression nesting up to it
//! again inside, deeper than a derived clone's frames fit in a small
//! thread's stack in a debug build. And `map_children`, one level of a
//! rewrite of an expression (`remap_columns`, `eval::fold`).

use super::{RelationPlan, ScalarExpr};
use crate::recursion::grown;

impl ScalarExpr {
    /// How deep the expression nests (a leaf is 1).
    pub fn nesting(&self) -> usize {
        nesting(self, |e| match e {
            ScalarExpr::Column(_) | ScalarExpr::Literal(_) | ScalarExpr::Error(_) => Vec::new(),
            ScalarExpr::Unary(_, e) | ScalarExpr::Cast(_, e) => vec![e],
            ScalarExpr::Binary(_, l, r) => vec![l, r],
            ScalarExpr::Case { whens, els } => {
                let arms = whens.iter().flat_map(|(c, r)| [c, r]);
                arms.chain([&**els]).collect()
            }
            ScalarExpr::Or(es) | ScalarExpr::Coalesce(es) | ScalarExpr::Call(_, es) => {
                es.iter().collect()
            }
        })
    }
}

impl ScalarExpr {
    /// The expression with `f` applied to each of its direct children.
    pub fn map_children(self, f: &mut dyn FnMut(ScalarExpr) -> ScalarExpr) -> ScalarExpr {
        let mut all = |es: Vec<ScalarExpr>| es.into_iter().map(&mut *f).collect::<Vec<_>>();
        match self {
            e @ (ScalarExpr::Column(_) | ScalarExpr::Literal(_) | ScalarExpr::Error(_)) => e,
            ScalarExpr::Or(es) => ScalarExpr::Or(all(es)),
            ScalarExpr::Coalesce(es) => ScalarExpr::Coalesce(all(es)),
            ScalarExpr::Call(func, es) => ScalarExpr::Call(func, all(es)),
            ScalarExpr::Unary(op, e) => ScalarExpr::Unary(op, Box::new(f(*e))),
            ScalarExpr::Cast(t, e) => ScalarExpr::Cast(t, Box::new(f(*e))),
            ScalarExpr::Binary(op, l, r) => {
                let l = Box::new(f(*l));
                ScalarExpr::Binary(op, l, Box::new(f(*r)))
            }
            ScalarExpr::Case { whens, els } => {
                let whens = whens.into_iter().map(|(c, t)| (f(c), f(t))).collect();
                ScalarExpr::Case {
                    whens,
                    els: Box::new(f(*els)),
                }
            }
        }
    }
}

impl RelationPlan {
    /// How deep the plan nests (a leaf is 1), counting its inputs only.
    pub fn nesting(&self) -> usize {
        nesting(self, RelationPlan::inputs)
    }

    /// Whether the plan reads the `Let` named `id` anywhere (a `Local`),
    /// walked with a stack of its own.
    pub fn reads_local(&self, id: usize) -> bool {
        let mut stack = vec![self];
        while let Some(plan) = stack.pop() {
            if matches!(plan, RelationPlan::Local { id: read, .. } if *read == id) {
                return true;
            }
            stack.extend(plan.inputs());
        }
        false
    }

    /// Whether the plan is constant as Materialize's constant folding
    /// sees it: no catalog relation or `Let` read, and no table function
    /// of more rows than its fold limit (10,000) over literal rows
    /// (`fold_flat_map_constant`; one that fails is folded to its error).
    /// A table function over a constant that is not yet literal rows is
    /// not counted: taken as constant.
    pub fn is_constant(&self) -> bool {
        const FOLD_LIMIT: usize = 10_000;
        let mut stack = vec![self];
        while let Some(plan) = stack.pop() {
            match plan {
                RelationPlan::Get(_) | RelationPlan::Local { .. } => return false,
                RelationPlan::FlatMap { input, func, exprs } => {
                    if let RelationPlan::Constant { rows, .. } = &**input {
                        let mut count = 0;
                        for row in rows {
                            let values = exprs.iter().map(|e| e.eval(row));
                            let Ok(values) = values.collect::<Result<Vec<_>, _>>() else {
                                break;
                            };
                            let left = FOLD_LIMIT + 1 - count;
                            count += func.rows(&values).map_or(0, |r| r.take(left).count());
                            if count > FOLD_LIMIT {
                                return false;
                            }
                        }
                    }
                    stack.push(input);
                }
                _ => stack.extend(plan.inputs()),
            }
        }
        true
    }

    /// The plan's direct inputs (a `Let`'s are its value and its body).
    pub(super) fn inputs(&self) -> Vec<&RelationPlan> {
        match self {
            RelationPlan::Get(_) | RelationPlan::Constant { .. } | RelationPlan::Local { .. } => {
                Vec::new()
            }
            RelationPlan::Map { input, .. }
            | RelationPlan::FlatMap { input, .. }
            | RelationPlan::Filter { input, .. }
            | RelationPlan::Project { input, .. }
            | RelationPlan::Reduce { input, .. }
            | RelationPlan::Distinct { input }
            | RelationPlan::Negate { input }
            | RelationPlan::Threshold { input }
            | RelationPlan::TopK { input, .. }
            | RelationPlan::Window { input, .. }
            | RelationPlan::Derived { input, .. } => vec![input],
            RelationPlan::Join { inputs, .. } | RelationPlan::Union { inputs } => {
                inputs.iter().collect()
            }
            RelationPlan::EquiJoin { left, right, .. } => vec![left, right],
            RelationPlan::Let { value, body, .. } => vec![value, body],
            RelationPlan::LetRec { values, body, .. } => values.iter().chain([&**body]).collect(),
        }
    }
}

/// How deep the tree under `root` nests (a leaf is 1), walked with a stack
/// of its own, so that measuring a deep tree cannot overflow one.
fn nesting<T>(root: &T, children: impl Fn(&T) -> Vec<&T>) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(root, 1)];
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        stack.extend(children(node).into_iter().map(|c| (c, depth + 1)));
    }
    deepest
}

impl Clone for ScalarExpr {
    fn clone(&self) -> ScalarExpr {
        let boxed = |e: &ScalarExpr| Box::new(e.clone());
        grown(|| match self {
            ScalarExpr::Column(c) => ScalarExpr::Column(*c),
            ScalarExpr::Literal(d) => ScalarExpr::Literal(d.clone()),
            ScalarExpr::Error(what) => ScalarExpr::Error(what.clone()),
            ScalarExpr::Unary(op, e) => ScalarExpr::Unary(*op, boxed(e)),
            ScalarExpr::Binary(op, l, r) => ScalarExpr::Binary(*op, boxed(l), boxed(r)),
            ScalarExpr::Cast(to, e) => ScalarExpr::Cast(*to, boxed(e)),
            ScalarExpr::Case { whens, els } => ScalarExpr::Case {
                whens: whens.to_vec(),
                els: boxed(els),
            },
            ScalarExpr::Or(operands) => ScalarExpr::Or(operands.to_vec()),
            ScalarExpr::Coalesce(exprs) => ScalarExpr::Coalesce(exprs.to_vec()),
            ScalarExpr::Call(func, args) => ScalarExpr::Call(*func, args.to_vec()),
        })
    }
}

impl Clone for RelationPlan {
    fn clone(&self) -> RelationPlan {
        let boxed = |p: &RelationPlan| Box::new(p.clone());
        grown(|| match self {
            RelationPlan::Get(id) => RelationPlan::Get(*id),
            RelationPlan::Constant { rows, arity } => RelationPlan::Constant {
                rows: rows.clone(),
                arity: *arity,
            },
            RelationPlan::FlatMap { input, func, exprs } => RelationPlan::FlatMap {
                input: boxed(input),
                func: func.clone(),
                exprs: exprs.clone(),
            },
            RelationPlan::Map { input, exprs } => RelationPlan::Map {
                input: boxed(input),
                exprs: exprs.clone(),
            },
            RelationPlan::Filter { input, predicates } => RelationPlan::Filter {
                input: boxed(input),
                predicates: predicates.clone(),
            },
            RelationPlan::Project { input, columns } => RelationPlan::Project {
                input: boxed(input),
                columns: columns.clone(),
            },
            RelationPlan::Join {
                inputs,
                equivalences,
            } => RelationPlan::Join {
                inputs: inputs.clone(),
                equivalences: equivalences.clone(),
            },
            RelationPlan::Reduce {
                input,
                group_key,
                aggregates,
                global,
            } => RelationPlan::Reduce {
                input: boxed(input),
                group_key: group_key.clone(),
                aggregates: aggregates.clone(),
                global: *global,
            },
            RelationPlan::Distinct { input } => RelationPlan::Distinct {
                input: boxed(input),
            },
            RelationPlan::Negate { input } => RelationPlan::Negate {
                input: boxed(input),
            },
            RelationPlan::Threshold { input } => RelationPlan::Threshold {
                input: boxed(input),
            },
            RelationPlan::Window { input, window } => RelationPlan::Window {
                input: boxed(input),
                window: window.clone(),
            },
            RelationPlan::Derived {
                input,
                computed,
                site,
            } => RelationPlan::Derived {
                input: boxed(input),
                computed: computed.clone(),
                site: *site,
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
                left: boxed(left),
                right: boxed(right),
                left_key: left_key.clone(),
                right_key: right_key.clone(),
                arities: *arities,
                kind: *kind,
                nulls_match: *nulls_match,
            },
            RelationPlan::TopK {
                input,
                group_key,
                order_by,
                limit,
                offset,
            } => RelationPlan::TopK {
                input: boxed(input),
                group_key: group_key.clone(),
                order_by: order_by.clone(),
                limit: *limit,
                offset: *offset,
            },
            RelationPlan::Let { id, value, body } => RelationPlan::Let {
                id: *id,
                value: boxed(value),
                body: boxed(body),
            },
            RelationPlan::LetRec { ids, values, body } => RelationPlan::LetRec {
                ids: ids.clone(),
                values: values.clone(),
                body: boxed(body),
            },
            RelationPlan::Local { id, arity } => RelationPlan::Local {
                id: *id,
                arity: *arity,
            },
            RelationPlan::Union { inputs } => RelationPlan::Union {
                inputs: inputs.clone(),
            },
        })
    }
}
