//! What the planner needs to know about the catalog: the one interface
//! between the SQL front end and whoever holds the objects (the
//! coordinator's catalog; the planner tests' fixed one).

use super::ObjectKind;
use crate::repr::{Column, GlobalId};

/// What the planner needs to know about the catalog.
pub trait Resolver {
    /// Resolves a relation, index or view name: unqualified, exactly as
    /// given (an unquoted name was folded to lower case before).
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)>;
    /// The columns of a relation (table, view or introspection relation).
    fn columns(&self, id: GlobalId) -> Option<Vec<Column>>;
    /// The name of an object, for default index names.
    fn name(&self, id: GlobalId) -> Option<String>;
    /// Whether an object of this name exists (for CREATE name clashes).
    fn exists(&self, name: &str) -> bool {
        self.resolve(name).is_some()
    }
    /// Whether a system variable (`sql::constraints`) is on.
    fn enabled(&self, _flag: &str) -> bool {
        false
    }
    /// The first object, by id, whose dependence on `id` refuses its drop
    /// without `CASCADE` (anything but an index): its kind and name.
    fn drop_dependent(&self, _id: GlobalId) -> Option<(ObjectKind, String)> {
        None
    }
    /// A relation's keys; `None` for a view over a table with keys, whose
    /// keys Materialize infers and the engine does not.
    fn keys(&self, _id: GlobalId) -> Option<Vec<Vec<usize>>> {
        Some(vec![])
    }
}
