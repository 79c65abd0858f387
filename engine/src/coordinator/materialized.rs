//! Materialized views: a compute export besides an index, whose dataflow
//! keeps a query's result and which other reads, indexes and materialized
//! views read.
//!
//! Materialize writes a materialized view's result to a persist shard,
//! which any cluster reads. The engine has no persist: the view's dataflow
//! is built where indexes are (the maintenance runtime under sharing) and
//! keeps its result in an index's two traces, its rows keyed by every
//! column, exported under the view's own id and published like any index.
//! A read of the view imports that export (or an index on the view, which
//! is itself a dataflow importing it), so under sharing the interactive
//! runtime reads it through the registry exactly as it reads an index; its
//! since follows the read policy of exports, and its errors are data that
//! every reader sees. What the stand-in does not model is said in
//! docs/semantics.md ("Materialized views").

use super::catalog::{self, Detail, IndexDetail};
use super::Engine;
use crate::api::Outcome;
use crate::plan::{RelationPlan, SchemaId};
use crate::protocol::Command;
use crate::repr::{unsupported, Column, GlobalId};

impl Engine {
    /// `CREATE [OR REPLACE] MATERIALIZED VIEW`, planned; `replace` is the
    /// materialized view of that name to drop, which its dependents (not
    /// its indexes) refuse, as Materialize's `plan_drop_item` does.
    pub(super) fn create_materialized_view(
        &mut self,
        (name, schema): (String, SchemaId),
        columns: Vec<Column>,
        plan: RelationPlan,
        replace: Option<GlobalId>,
    ) -> Outcome {
        if let Some(old) = replace {
            if let Some(e) = self.drop_refusal(old) {
                return Outcome::Error(e);
            }
        }
        let as_of = self.now;
        self.next_dataflow += 1;
        let dataflow_id = self.next_dataflow;
        let label = format!("Dataflow: {name}");
        let desc = match self.dataflow_desc(dataflow_id, label, plan.clone(), as_of) {
            Ok(desc) => desc,
            Err(e) => return Outcome::Error(e),
        };
        // Materialize refuses a materialized view of its log sources and
        // reads its catalog tables as they change; the engine's
        // introspection relations are constants computed once.
        if let Some(relation) = self.constant_read(&desc) {
            return Outcome::Error(unsupported(format!(
                "a materialized view that reads {relation}"
            )));
        }
        if let Some(old) = replace {
            let dropped = self.drop_object(old);
            debug_assert!(matches!(dropped, Outcome::Ok), "{dropped:?}");
        }
        let id = self.catalog.allocate_id();
        let key: Vec<usize> = (0..columns.len()).collect();
        let imports: Vec<GlobalId> = desc.imports.keys().copied().collect();
        self.runtimes[self.maintenance()]
            .runtime
            .broadcast(Command::CreateIndex {
                id,
                desc,
                key: key.clone(),
            });
        self.catalog.insert(catalog::Entry {
            id,
            name,
            schema,
            columns,
            detail: Detail::MaterializedView {
                plan,
                export: IndexDetail {
                    on: id,
                    key,
                    imports,
                },
            },
        });
        self.sinces.insert(id, as_of);
        self.announce(id, as_of);
        self.settle();
        Outcome::Ok
    }
}
