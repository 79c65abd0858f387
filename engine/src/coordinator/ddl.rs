//! Statements that change the catalog or a table: CREATE, DROP, INSERT,
//! UPDATE, DELETE, and the clock tick every write makes.

use super::catalog::{self, Catalog, Detail, IndexDetail};
use super::contents::Contents;
use super::keys::KeyCounts;
use super::{roles, system, Engine};
use crate::api::Outcome;
use crate::eval::passes;
use crate::packed::PackedRow;
use crate::plan::{not_null_violation, Finishing, RelationPlan, Statement, Transaction};
use crate::protocol::{Command, PeekTarget};
use crate::repr::{unsupported, Column, DataflowError, Datum, Diff, GlobalId, Row};
use crate::sql;

impl Engine {
    pub(super) fn run_statements(&mut self, sql: &str) -> Outcome {
        let alters = self.roles.user() == roles::SYSTEM && system::is_alter_system(sql);
        let role = (!alters).then(|| sql::role_statement(sql)).flatten();
        if (alters || role.is_some()) && self.in_transaction() {
            let e = self
                .transaction_failed()
                .unwrap_or_else(|| unsupported("a role or system statement in a transaction"));
            self.fail_transaction(&e);
            return Outcome::Error(e);
        }
        if alters {
            return self.alter_system(sql).unwrap_or_else(Outcome::Error);
        }
        if let Some(role) = role {
            return match role.and_then(|r| self.run_role_statement(r)) {
                Ok(()) => Outcome::Ok,
                Err(e) => Outcome::Error(e),
            };
        }
        let statements = match sql::statements(sql) {
            Ok(statements) => statements,
            Err(e) => return Outcome::Error(e),
        };
        for statement in statements {
            match self.run_unplanned(statement) {
                Ok(Outcome::Ok | Outcome::Rows(_)) => {}
                Ok(outcome) => return outcome,
                Err(e) => {
                    self.fail_transaction(&e);
                    return Outcome::Error(e);
                }
            }
        }
        Outcome::Ok
    }

    /// Plans and runs one statement of a request: in a failed transaction
    /// only its end runs (Materialize's pgwire checks before planning).
    pub(super) fn run_unplanned(&mut self, statement: sql::Unplanned) -> Result<Outcome, String> {
        let failed = self.transaction_failed();
        self.catalog.path = self.vars.path();
        self.catalog.session = statement.is_query().then(|| self.session());
        let planned = statement.plan(&self.catalog);
        self.catalog.session = None;
        let ends = matches!(
            planned,
            Ok(Some(Statement::Transaction(
                Transaction::Commit | Transaction::Rollback
            )))
        );
        if let Some(e) = failed.filter(|_| !ends) {
            return Err(e);
        }
        let Some(statement) = planned? else {
            return Ok(Outcome::Ok);
        };
        self.gate(&statement)?;
        let before = self.owned_before();
        let outcome = self.run_planned(statement)?;
        self.own_new(before);
        self.sync_acls();
        match outcome {
            Outcome::Error(e) => Err(e),
            outcome => Ok(outcome),
        }
    }

    pub(super) fn execute(&mut self, statement: Statement) -> Outcome {
        match statement {
            Statement::CreateTable {
                name,
                schema,
                columns,
                keys,
            } => {
                let id = self.catalog.allocate_id();
                let now = self.now;
                self.runtimes[self.maintenance()]
                    .runtime
                    .broadcast(Command::CreateTable { id, now });
                self.announce(id, now);
                if !keys.is_empty() {
                    self.table_keys.insert(id, KeyCounts::new(keys.clone()));
                }
                self.catalog.insert(catalog::Entry {
                    id,
                    name,
                    schema,
                    columns,
                    detail: Detail::Table { keys },
                });
                self.sinces.insert(id, now);
                self.table_rows.insert(id, Contents::default());
                self.settle();
                Outcome::Ok
            }
            Statement::Insert { table, rows } => {
                let updates = rows.into_iter().map(|r| (r, 1)).collect();
                self.checked_write(table, updates)
            }
            Statement::InsertSelect { table, plan } => {
                // Read, then write what was read, as the real system does;
                // a source its optimizer folds to a constant is written as
                // one (`insert_constant`), its evaluation error reported
                // with its own text, as a VALUES row's is.
                let constant = plan.is_constant();
                let rows = match self.select(plan, None, Finishing::default(), None) {
                    Outcome::Rows(rows) => rows,
                    Outcome::Error(e) if constant => {
                        return Outcome::Error(DataflowError(e).what().to_string())
                    }
                    other => return other,
                };
                let columns = plan_columns(&self.catalog, table);
                if let Some(e) = rows.iter().find_map(|r| not_null_violation(&columns, r)) {
                    return Outcome::Error(e);
                }
                let updates = rows.iter().map(|r| (PackedRow::pack(r), 1)).collect();
                self.checked_write(table, updates)
            }
            Statement::Update {
                table,
                assignments,
                predicates,
            } => self.update(table, &assignments, &predicates),
            Statement::Delete { table, predicates } => {
                let mut updates = Vec::new();
                for (row, count) in self.rows_of(table) {
                    match passes(&predicates, &row) {
                        Err(e) => return Outcome::Error(e.0),
                        Ok(false) => {}
                        Ok(true) => updates.push((PackedRow::pack(&row), -count)),
                    }
                }
                self.write(table, updates);
                Outcome::Ok
            }
            Statement::CreateView {
                name,
                schema,
                columns,
                plan,
            } => {
                let id = self.catalog.allocate_id();
                self.catalog.insert(catalog::Entry {
                    id,
                    name,
                    schema,
                    columns,
                    detail: Detail::View { plan },
                });
                Outcome::Ok
            }
            Statement::CreateMaterializedView {
                name,
                schema,
                columns,
                plan,
                replace,
            } => self.create_materialized_view((name, schema), columns, plan, replace),
            Statement::CreateDatabase { name } => {
                self.catalog.namespaces.create_database(&name);
                Outcome::Ok
            }
            Statement::CreateSchema { database, name } => {
                self.catalog.namespaces.create_schema(&database, &name);
                Outcome::Ok
            }
            Statement::CreateIndex { name, on, key } => self.create_index(name, on, key),
            Statement::Drop { ids } => self.drop_objects(&ids),
            Statement::DropSchemas { schemas, databases } => {
                self.drop_schemas(&schemas, &databases)
            }
            Statement::Select {
                plan,
                as_of,
                finishing,
                simple,
                ..
            } => {
                // A read its optimizer folds to a constant is answered
                // without a dataflow (`FastPathPlan::Constant`), its
                // evaluation error reported with its own text
                // (`AdapterError::Eval`), as an INSERT's above.
                let constant = plan.is_constant();
                match self.select(plan, as_of, finishing, simple) {
                    Outcome::Error(e) if constant => {
                        Outcome::Error(DataflowError(e).what().to_string())
                    }
                    other => other,
                }
            }
            Statement::SetVariable { name, value } => {
                self.vars.set(name, value);
                self.catalog.path = self.vars.path();
                Outcome::Ok
            }
            Statement::Transaction(control) => match self.control(control) {
                Ok(()) => Outcome::Ok,
                Err(e) => Outcome::Error(e),
            },
            Statement::ShowVariable { name, .. } => {
                // A session's value: no table or index is read.
                self.constant_reads += 1;
                Outcome::Rows(vec![vec![Datum::Text(self.vars.get(name).into())]])
            }
        }
    }

    /// `write`, unless the updates would make two rows share a key.
    pub(super) fn checked_write(
        &mut self,
        table: GlobalId,
        updates: Vec<(PackedRow, Diff)>,
    ) -> Outcome {
        if let Some(e) = self.repeated_key(table, &updates) {
            return Outcome::Error(e);
        }
        self.write(table, updates);
        Outcome::Ok
    }

    /// Commits `updates` to `table` at `now + 1`, then advances the clock.
    pub(super) fn write(&mut self, table: GlobalId, updates: Vec<(PackedRow, Diff)>) {
        self.write_all(vec![(table, updates)]);
    }

    /// Commits each table's updates at `now + 1`, all at that one time,
    /// then advances the clock once.
    pub(super) fn write_all(&mut self, writes: Vec<(GlobalId, Vec<(PackedRow, Diff)>)>) {
        for (table, mut updates) in writes {
            updates.retain(|(_, diff)| *diff != 0);
            let contents = self.table_rows.get_mut(&table).expect("table exists");
            contents.write(&updates);
            if let Some(counts) = self.table_keys.get_mut(&table) {
                counts.write(&updates);
            }
            self.runtimes[self.maintenance()]
                .runtime
                .command(0, Command::Write { table, updates });
        }
        self.advance_clock();
    }

    /// A table's current rows with their counts, in row order.
    pub(super) fn rows_of(&mut self, table: GlobalId) -> Vec<(Row, Diff)> {
        let contents = self.table_rows.get_mut(&table).expect("table exists");
        contents.rows().collect()
    }

    /// `now` advances by one and every table's upper becomes `now + 1`.
    pub(super) fn advance_clock(&mut self) {
        self.now += 1;
        let upper = self.now + 1;
        self.runtimes[self.maintenance()]
            .runtime
            .broadcast(Command::AdvanceTables { upper });
        self.settle();
    }

    pub(super) fn create_index(&mut self, name: String, on: GlobalId, key: Vec<usize>) -> Outcome {
        let as_of = self.now;
        let id = self.catalog.allocate_id();
        self.next_dataflow += 1;
        let dataflow_id = self.next_dataflow;
        // An index on an already arranged (collection, key) re-exports it.
        let target = self
            .catalog
            .indexes_on(on)
            .find(|(_, d)| d.key == key)
            .map(|(e, _)| e.id);
        let maintenance = self.maintenance();
        let imports = match target {
            Some(target) => {
                self.runtimes[maintenance]
                    .runtime
                    .broadcast(Command::Reexport {
                        id,
                        target,
                        dataflow_id,
                        as_of,
                    });
                vec![target]
            }
            None => {
                let desc = match self.dataflow_desc(
                    dataflow_id,
                    format!("Dataflow: {name}"),
                    RelationPlan::Get(on),
                    as_of,
                ) {
                    Ok(desc) => desc,
                    Err(e) => return Outcome::Error(e),
                };
                if let Some(relation) = self.constant_read(&desc) {
                    return Outcome::Error(unsupported(format!("an index that reads {relation}")));
                }
                let imports: Vec<GlobalId> = desc.imports.keys().copied().collect();
                self.runtimes[maintenance]
                    .runtime
                    .broadcast(Command::CreateIndex {
                        id,
                        desc,
                        key: key.clone(),
                    });
                imports
            }
        };
        let columns = plan_columns(&self.catalog, on);
        let schema = crate::plan::Resolver::schema_of(&self.catalog, on);
        self.catalog.insert(catalog::Entry {
            id,
            name,
            schema,
            columns,
            detail: Detail::Index(IndexDetail { on, key, imports }),
        });
        self.sinces.insert(id, as_of);
        self.announce(id, as_of);
        self.settle();
        Outcome::Ok
    }

    /// A drop of `id` alone, as `CREATE OR REPLACE MATERIALIZED VIEW`
    /// drops what it replaces: refused if anything but an index depends on
    /// it, else it goes with the indexes on it (`drop_objects`).
    pub(super) fn drop_object(&mut self, id: GlobalId) -> Outcome {
        if let Some(e) = self.drop_refusal(id) {
            return Outcome::Error(e);
        }
        self.drop_objects(&[id])
    }

    /// Why a drop of `id` is refused: the first object that depends on it
    /// (Materialize's text, `sql::still_depended_upon`).
    pub(super) fn drop_refusal(&self, id: GlobalId) -> Option<String> {
        let entry = self.catalog.get(id).expect("planner resolved the id");
        let dependent = self.catalog.blocks_drop(id)?;
        let shown = |id| crate::plan::minimal_name(&self.catalog, id).unwrap_or_default();
        Some(sql::still_depended_upon(
            entry.kind(),
            &shown(id),
            dependent.kind(),
            &shown(dependent.id),
        ))
    }

    /// Removes `id` from the catalog and from compute.
    pub(super) fn forget(&mut self, id: GlobalId) {
        let entry = self.catalog.remove(id).expect("a live object");
        // A named hold on it stays known, as the real system's read hold
        // stays its holder's: it holds nothing now (the read policy only
        // advances live collections) and `release` still ends it.
        self.sinces.remove(&id);
        match entry.detail {
            // A pending peek holds its index as the real system's read hold
            // does: the index stays maintained until the peek is answered or
            // cancelled, so the peek reads every update up to its time.
            Detail::Index(_)
                if self
                    .peeks
                    .values()
                    .any(|p| p.target == PeekTarget::Index(id)) =>
            {
                self.dropped_under_peek.insert(id);
            }
            Detail::Index(_) | Detail::MaterializedView { .. } => self.drop_index_dataflow(id),
            Detail::Table { .. } => {
                self.table_rows.remove(&id);
                self.table_keys.remove(&id);
                self.runtimes[self.maintenance()]
                    .runtime
                    .broadcast(Command::DropTable { id });
                self.drop_peer(id);
            }
            Detail::View { .. } => {}
        }
    }

    /// Ends what reads relation `id` (being dropped) by name, as the
    /// real system does, naming it as the real system does: by its full
    /// name, `database.schema.item`.
    pub(super) fn end_reads_of(&mut self, id: GlobalId, name: &str) {
        let relation = format!("relation \"{name}\"");
        self.end_subscribes_reading(id, &relation);
        self.cancel_peeks_reading(id, &relation);
    }

    /// Drops a catalog-forgotten index on every runtime.
    pub(super) fn drop_index_dataflow(&mut self, id: GlobalId) {
        self.runtimes[self.maintenance()]
            .runtime
            .broadcast(Command::DropExport { id });
        self.drop_peer(id);
    }

    /// Tells the peer runtime (if any) that a table or index is gone.
    fn drop_peer(&self, id: GlobalId) {
        if let Some(peer) = self.peer() {
            self.runtimes[peer]
                .runtime
                .broadcast(Command::DropPeer { id });
        }
    }
}

/// The columns of a relation, for an index on it.
pub(super) fn plan_columns(catalog: &Catalog, id: GlobalId) -> Vec<Column> {
    crate::plan::Resolver::columns(catalog, id).unwrap_or_default()
}
