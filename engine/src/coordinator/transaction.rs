//! Transactions, one per connection, as Materialize's adapter keeps them
//! (`session.rs`: `TransactionStatus`, `start_transaction`, `add_ops`;
//! `command_handler.rs`: what may run in one; pgwire: a failed one, and
//! the implicit transaction of several statements in one request).
//!
//! A transaction either reads or writes. Its first read of a table, view
//! or materialized view pins it to `now` and holds every collection of its
//! time domain there (Materialize's `timedomain_for`: whatever the schemas
//! of what it read hold, and what those read), so every later read sees
//! the same time however the clock moves; a read of a constant pins
//! nothing. Its constant `INSERT`s are kept and written together, at one
//! time, by `COMMIT` (or the end of the implicit transaction), and dropped
//! by `ROLLBACK`. Mixing the two is Materialize's error, and after any
//! error an explicit transaction fails every statement but its end.
//!
//! What the engine does not model exactly is refused by name: a read
//! outside the time domain (Materialize's error lists its catalog), any
//! statement Materialize delays to `COMMIT` or refuses in a transaction
//! block with its own rendering of the statement (DDL, `UPDATE`,
//! `DELETE`, `INSERT ... SELECT`), `SET` (whose value a `ROLLBACK` would
//! undo), `AS OF`, introspection, and a `SUBSCRIBE`.

use std::collections::{BTreeMap, BTreeSet};

use super::builtin::Relation;
use super::catalog::Detail;
use super::Engine;
use crate::api::Outcome;
use crate::packed::PackedRow;
use crate::plan::{ObjectKind, RelationPlan, Statement, Transaction};
use crate::repr::{unsupported, GlobalId, Timestamp, UNSUPPORTED};

/// Materialize's error for a statement in a failed transaction.
pub(super) const ABORTED: &str =
    "current transaction is aborted, commands ignored until end of transaction block";
/// Its `ReadOnlyTransaction`, with its detail.
const READ_ONLY: &str = "transaction in read-only mode\nDETAIL: SELECT queries cannot be \
                         combined with other query types, including SUBSCRIBE.";
/// Its `WriteOnlyTransaction`.
const WRITE_ONLY: &str = "transaction in write-only mode";
/// Its `ReadWriteUnavailable`.
const READ_WRITE: &str = "transaction read-write mode must be set before any query";

/// The open transaction of each connection (`None`: the default one).
#[derive(Default)]
pub(super) struct Transactions {
    open: BTreeMap<Option<String>, Open>,
}

/// An open transaction.
struct Open {
    /// Started by `BEGIN`; otherwise the implicit one of a request.
    explicit: bool,
    /// The access mode named last: `Some(true)` for `READ ONLY`.
    read_only: Option<bool>,
    /// An error happened in it: only its end runs.
    failed: bool,
    /// The engine refused one of its statements, so what Materialize's
    /// transaction would hold is unknown: every statement but `ROLLBACK`
    /// is refused.
    refused: bool,
    ops: Ops,
}

/// What a transaction did so far.
enum Ops {
    None,
    /// Reads; once one read a collection, the time it pinned and what the
    /// transaction holds there.
    Reads(Option<(Timestamp, BTreeSet<GlobalId>)>),
    /// Constant `INSERT`s, in order, written at `COMMIT`.
    Writes(Vec<(GlobalId, Vec<PackedRow>)>),
}

impl Transactions {
    /// The holds of every pinned transaction, for the read policy.
    pub(super) fn holds(&self) -> impl Iterator<Item = (GlobalId, Timestamp)> + '_ {
        self.open.values().flat_map(|open| match &open.ops {
            Ops::Reads(Some((time, held))) => held.iter().map(|id| (*id, *time)).collect(),
            _ => Vec::new(),
        })
    }
}

impl Engine {
    fn acting_key(&self) -> Option<String> {
        self.roles.connection().map(str::to_string)
    }

    fn open_transaction(&mut self) -> Option<&mut Open> {
        let key = self.acting_key();
        self.transactions.open.get_mut(&key)
    }

    /// Whether the acting connection is in a transaction.
    pub(super) fn in_transaction(&self) -> bool {
        self.transactions.open.contains_key(&self.acting_key())
    }

    /// The error of any statement but an end in the acting connection's
    /// transaction, if it failed: Materialize's, or a refusal after one.
    pub(super) fn transaction_failed(&self) -> Option<String> {
        let open = self.transactions.open.get(&self.acting_key())?;
        match (open.failed, open.refused) {
            (_, true) => Some(unsupported(
                "a statement after a refused one in a transaction",
            )),
            (true, false) => Some(ABORTED.into()),
            (false, false) => None,
        }
    }

    /// Starts the implicit transaction of a request of several statements,
    /// unless one is open.
    pub(super) fn begin_implicit(&mut self) {
        let key = self.acting_key();
        self.transactions.open.entry(key).or_insert(Open {
            explicit: false,
            read_only: None,
            failed: false,
            refused: false,
            ops: Ops::None,
        });
    }

    /// After `error`: an explicit transaction fails (its state unknown
    /// after a refusal), an implicit one is rolled back.
    pub(super) fn fail_transaction(&mut self, error: &str) {
        let key = self.acting_key();
        match self.transactions.open.get_mut(&key) {
            Some(open) if open.explicit => {
                open.failed = true;
                open.refused |= error.starts_with(UNSUPPORTED);
            }
            Some(_) => {
                self.transactions.open.remove(&key);
            }
            None => {}
        }
    }

    /// Ends the implicit transaction of a request, if it is still open and
    /// implicit, committing it.
    pub(super) fn end_implicit(&mut self) -> Result<(), String> {
        let key = self.acting_key();
        match self.transactions.open.get(&key) {
            Some(open) if !open.explicit => self.end_transaction(true),
            _ => Ok(()),
        }
    }

    /// A request of the simple query protocol: one statement runs as a
    /// `statement` directive does; several run in turn in an implicit
    /// transaction (begun again after a `COMMIT` among them), each
    /// outcome kept, and the first error ends the request and is its
    /// whole outcome.
    pub(super) fn run_request(&mut self, sql: &str) -> Outcome {
        let statements = match crate::sql::statements(sql) {
            Ok(statements) if statements.len() > 1 => statements,
            _ => return self.run_statements(sql),
        };
        let mut results = Vec::new();
        for statement in statements {
            self.begin_implicit();
            match self.run_unplanned(statement) {
                Ok(outcome @ (Outcome::Ok | Outcome::Rows(_))) => results.push(outcome),
                Ok(outcome) => {
                    self.fail_transaction("");
                    return outcome;
                }
                Err(e) => {
                    self.fail_transaction(&e);
                    return Outcome::Error(e);
                }
            }
        }
        match self.end_implicit() {
            Ok(()) => Outcome::Results(results),
            Err(e) => Outcome::Error(e),
        }
    }

    /// Runs a planned statement in the acting connection's transaction,
    /// if it has one, or else on its own.
    pub(super) fn run_planned(&mut self, statement: Statement) -> Result<Outcome, String> {
        if let Statement::Transaction(control) = statement {
            return self.control(control).map(|()| Outcome::Ok);
        }
        if !self.in_transaction() {
            return Ok(self.execute(statement));
        }
        match statement {
            Statement::Select { as_of: Some(_), .. } => Err(unsupported("AS OF in a transaction")),
            mut select @ Statement::Select { .. } => {
                if let Statement::Select { plan, as_of, .. } = &mut select {
                    *as_of = self.read_time(plan)?;
                }
                Ok(self.execute(select))
            }
            statement @ Statement::ShowVariable { .. } => Ok(self.execute(statement)),
            Statement::Insert { table, rows } => {
                let open = self.open_transaction().expect("in a transaction");
                match &mut open.ops {
                    _ if open.read_only == Some(true) => return Err(READ_ONLY.into()),
                    Ops::Reads(Some(_)) => return Err(READ_ONLY.into()),
                    Ops::Writes(writes) => writes.push((table, rows)),
                    ops => *ops = Ops::Writes(vec![(table, rows)]),
                }
                Ok(Outcome::Ok)
            }
            other => Err(unsupported(format!("{} in a transaction", named(&other)))),
        }
    }

    /// The time a read of `plan` in the open transaction reads at (`None`:
    /// it reads no collection), pinning the transaction on its first read.
    fn read_time(&mut self, plan: &RelationPlan) -> Result<Option<Timestamp>, String> {
        if plan.reads_any(&|id| Relation::by_id(id).is_some()) {
            return Err(unsupported(
                "a read of an introspection relation in a transaction",
            ));
        }
        let bases = self.bases(plan);
        if bases.is_empty() {
            let open = self.open_transaction().expect("in a transaction");
            if matches!(open.ops, Ops::None) {
                open.ops = Ops::Reads(None);
            }
            return Ok(None);
        }
        let needed = self.with_indexes(bases.clone());
        let now = self.now;
        let domain = self.domain(&bases);
        let open = self.open_transaction().expect("in a transaction");
        match &open.ops {
            Ops::Writes(_) => Err(WRITE_ONLY.into()),
            Ops::Reads(Some((time, held))) => match needed.is_subset(held) {
                true => Ok(Some(*time)),
                false => Err(unsupported("a read outside the transaction's time domain")),
            },
            Ops::None | Ops::Reads(None) => {
                open.ops = Ops::Reads(Some((now, domain)));
                Ok(Some(now))
            }
        }
    }

    /// The tables and materialized views `plan` reads, through views.
    fn bases(&self, plan: &RelationPlan) -> BTreeSet<GlobalId> {
        let named = super::peeks::named_relations(plan);
        let mut bases = BTreeSet::new();
        for id in named {
            self.expand(id, &mut bases);
        }
        bases
    }

    fn expand(&self, id: GlobalId, bases: &mut BTreeSet<GlobalId>) {
        match self.catalog.get(id).map(|e| &e.detail) {
            Some(Detail::View { plan }) => {
                for id in super::peeks::named_relations(plan) {
                    self.expand(id, bases);
                }
            }
            Some(Detail::Index(detail)) => self.expand(detail.on, bases),
            Some(_) => {
                bases.insert(id);
            }
            None => {}
        }
    }

    /// `bases` and every index on one of them.
    fn with_indexes(&self, mut bases: BTreeSet<GlobalId>) -> BTreeSet<GlobalId> {
        let indexes: Vec<GlobalId> = bases
            .iter()
            .flat_map(|b| self.catalog.indexes_on(*b).map(|(e, _)| e.id))
            .collect();
        bases.extend(indexes);
        bases.retain(|id| self.sinces.contains_key(id));
        bases
    }

    /// What a transaction whose first read read `bases` holds: every
    /// relation in their schemas, through views, and their indexes.
    fn domain(&self, bases: &BTreeSet<GlobalId>) -> BTreeSet<GlobalId> {
        let schemas: BTreeSet<_> = bases
            .iter()
            .filter_map(|id| self.catalog.get(*id).map(|e| e.schema))
            .collect();
        let mut domain = BTreeSet::new();
        let inside = self
            .catalog
            .entries()
            .filter(|e| schemas.contains(&e.schema));
        for entry in inside.filter(|e| e.kind() != ObjectKind::Index) {
            self.expand(entry.id, &mut domain);
        }
        self.with_indexes(domain)
    }

    /// `BEGIN`, `COMMIT` and `ROLLBACK`: a notice where Materialize warns
    /// (none is shown), no error.
    pub(super) fn control(&mut self, control: Transaction) -> Result<(), String> {
        match control {
            Transaction::Begin { read_only } => {
                let key = self.acting_key();
                let open = self.transactions.open.entry(key).or_insert(Open {
                    explicit: true,
                    read_only: None,
                    failed: false,
                    refused: false,
                    ops: Ops::None,
                });
                let queried = matches!(open.ops, Ops::Reads(_)) && open.read_only == Some(true);
                if queried && read_only == Some(false) {
                    return Err(READ_WRITE.into());
                }
                open.explicit = true;
                if read_only.is_some() {
                    open.read_only = read_only;
                }
                Ok(())
            }
            Transaction::Commit => self.end_transaction(true),
            Transaction::Rollback => self.end_transaction(false),
        }
    }

    /// Ends the acting connection's transaction; `commit` writes what it
    /// kept unless it failed.
    fn end_transaction(&mut self, commit: bool) -> Result<(), String> {
        let key = self.acting_key();
        let Some(open) = self.transactions.open.remove(&key) else {
            return Ok(());
        };
        if open.refused && commit {
            return Err(unsupported(
                "COMMIT of a transaction with a refused statement",
            ));
        }
        match open.ops {
            Ops::Writes(writes) if commit && !open.failed => self.commit_writes(writes),
            _ => Ok(()),
        }
    }

    /// Writes a transaction's inserts, all at one time.
    fn commit_writes(&mut self, writes: Vec<(GlobalId, Vec<PackedRow>)>) -> Result<(), String> {
        let mut by_table: BTreeMap<GlobalId, Vec<(PackedRow, i64)>> = BTreeMap::new();
        let mut order = Vec::new();
        for (table, rows) in writes {
            if !self.table_rows.contains_key(&table) {
                return Err(unsupported("a COMMIT of a write to a dropped table"));
            }
            if !by_table.contains_key(&table) {
                order.push(table);
            }
            let updates = by_table.entry(table).or_default();
            updates.extend(rows.into_iter().map(|r| (r, 1)));
        }
        for (table, updates) in &by_table {
            if let Some(e) = self.repeated_key(*table, updates) {
                return Err(e);
            }
        }
        let writes = order
            .into_iter()
            .map(|t| (t, by_table.remove(&t).expect("grouped")))
            .collect();
        self.write_all(writes);
        Ok(())
    }
}

/// How a refusal names a statement the engine does not run in a
/// transaction.
fn named(statement: &Statement) -> &'static str {
    match statement {
        Statement::CreateTable { .. } => "CREATE TABLE",
        Statement::InsertSelect { .. } => "INSERT ... SELECT",
        Statement::Update { .. } => "UPDATE",
        Statement::Delete { .. } => "DELETE",
        Statement::CreateView { .. } => "CREATE VIEW",
        Statement::CreateMaterializedView { .. } => "CREATE MATERIALIZED VIEW",
        Statement::CreateDatabase { .. } => "CREATE DATABASE",
        Statement::CreateSchema { .. } => "CREATE SCHEMA",
        Statement::DropSchemas { .. } | Statement::Drop { .. } => "DROP",
        Statement::CreateIndex { .. } => "CREATE INDEX",
        Statement::SetVariable { .. } => "SET",
        Statement::Insert { .. }
        | Statement::Select { .. }
        | Statement::ShowVariable { .. }
        | Statement::Transaction(_) => "a statement",
    }
}
