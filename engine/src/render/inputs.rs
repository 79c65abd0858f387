//! What a plan reads, already brought into the dataflow's scope: each
//! input's rows and errors, the arity of every relation a `Get` may name,
//! the arrangements a delta join may look imported indexes up in, and the
//! rows each enclosing `Let` binds.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::plan::RelationPlan;
use crate::repr::GlobalId;
use crate::sharing::{Point, Registry};
use crate::typedefs::{Errs, Oks, OksTrace};

/// What a plan reads, already brought into the dataflow's scope.
pub struct Inputs<'s> {
    pub collections: BTreeMap<GlobalId, (Oks<'s>, Errs<'s>)>,
    /// The column count of every relation a `Get` may name.
    pub arities: BTreeMap<GlobalId, usize>,
    /// The arrangements a delta join may look imported indexes up in;
    /// empty when joins are planned linear.
    pub lookups: BTreeMap<GlobalId, Lookup>,
    /// Each join's plan as rendered, in the real system's words
    /// (`Differential Join %0 » %1`, `Delta Join [%0 » %1] [%1 » %0]`).
    pub joins: RefCell<Vec<String>>,
    /// The rows each `Let` id is bound to where rendering is, innermost
    /// last (a view inlined twice may bind an id inside another binding).
    pub locals: RefCell<BTreeMap<usize, Vec<Oks<'s>>>>,
}

/// Where a delta join looks an imported index up, with the columns its
/// rows are arranged by.
pub struct Lookup {
    pub key: Vec<usize>,
    pub source: LookupSource,
}

/// An index's arrangement as a half join reads it.
#[derive(Clone)]
pub enum LookupSource {
    /// Traces this runtime maintains.
    Local(OksTrace),
    /// A point the other runtime publishes.
    Shared {
        point: Arc<Point>,
        registry: Arc<Registry>,
    },
}

impl<'s> Inputs<'s> {
    /// Binds `id` to `rows` inside a `Let`'s body, or ends the innermost
    /// binding of `id` (`None`) once the body is rendered.
    pub fn bind(&self, id: usize, rows: Option<Oks<'s>>) {
        let mut locals = self.locals.borrow_mut();
        let stack = locals.entry(id).or_default();
        match rows {
            Some(rows) => stack.push(rows),
            None => {
                stack.pop();
            }
        }
    }
}

/// The number of columns `plan` produces.
pub fn arity(plan: &RelationPlan, inputs: &Inputs<'_>) -> usize {
    plan.arity(&|id| {
        *inputs
            .arities
            .get(&id)
            .unwrap_or_else(|| panic!("arity of {id} unknown"))
    })
}
