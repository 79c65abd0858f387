//! The coordinator: catalog, clock, read policy, and the directives of a
//! scenario, translated into commands for the runtimes' workers.
//!
//! This module holds the engine's state and its public surface, one method
//! per directive, each ending in the same epilogue (`directive`). What a
//! directive does lives in the children: `ddl` (with `contents`, a
//! table's rows as the coordinator keeps them, `keys`, the check of a
//! table's keys, `drops`, what a DROP takes with it, and `update`, an
//! UPDATE's read and then write), `system` (`ALTER SYSTEM`), `roles` (roles,
//! the connections they act on, what they may run; `privileges`, their
//! memberships; `acl`, what each object holds), `transaction` (each connection's transaction), `peeks`
//! and `diagnosis`,
//! `subscribe`, `lower`, `read_policy`, `reports` and `stepping`. The
//! catalog (`catalog`, with the built-in relations in `builtin`) and the
//! rows of the introspection relations (`introspection`) are the
//! coordinator's alone.

mod acl;
mod builtin;
mod catalog;
mod catalog_rows;
mod contents;
mod ddl;
mod diagnosis;
mod drops;
mod introspection;
mod keys;
mod lower;
mod materialized;
mod namespaces;
mod peeks;
mod privileges;
mod read_policy;
mod reports;
mod roles;
mod stepping;
mod subscribe;
mod system;
mod transaction;
mod update;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use crate::api::{Config, Outcome, Role, Witness};
use crate::compute::ComputeState;
use crate::plan::Statement;
use crate::protocol::{Board, Command, Context, RuntimeRole, WorkerReport};
use crate::repr::{GlobalId, Timestamp};
use crate::runtime::scheduler::{Scheduler, Unit};
use crate::runtime::Runtime;
use crate::sharing::{Counters, Registry};
use crate::sql;
use catalog::Catalog;
use peeks::PeekState;
use subscribe::SubscribeState;

/// A runtime and the board its workers leave peek frontiers on.
struct RuntimeHandle {
    runtime: Runtime<ComputeState>,
    board: Arc<Mutex<Board>>,
}

/// The engine: a catalog, a clock, the runtimes and their scheduler.
pub struct Engine {
    config: Config,
    runtimes: Vec<RuntimeHandle>,
    scheduler: Scheduler,
    catalog: Catalog,
    now: Timestamp,
    /// Current since of every table and index.
    sinces: BTreeMap<GlobalId, Timestamp>,
    /// Named read holds: collection and time.
    holds: BTreeMap<String, (GlobalId, Timestamp)>,
    peeks: BTreeMap<u64, PeekState>,
    /// Peeks cancelled because a relation they read was dropped, with the
    /// error their await reads.
    cancelled_peeks: BTreeMap<u64, String>,
    named_peeks: BTreeMap<String, u64>,
    /// Indexes dropped from the catalog while a pending peek reads them:
    /// still maintained until the last such peek is answered or cancelled.
    dropped_under_peek: BTreeSet<GlobalId>,
    /// Live subscribes by name (and ended ones until their end is fetched).
    subscribes: BTreeMap<String, SubscribeState>,
    reports: BTreeMap<u64, Vec<WorkerReport>>,
    /// Current contents of every table, to turn UPDATE/DELETE into updates.
    table_rows: BTreeMap<GlobalId, contents::Contents>,
    /// How many rows hold each value of each key, for every keyed table.
    table_keys: BTreeMap<GlobalId, keys::KeyCounts>,
    next_dataflow: u64,
    next_request: u64,
    registry: Arc<Registry>,
    /// Introspection reads that returned rows (see `Witness::logging_reads`).
    logging_reads: u64,
    /// Constant-only reads that returned rows (see `Witness::constant_reads`).
    constant_reads: u64,
    /// The acting connection's variables, as `SHOW` prints them
    /// (`sql::vars`); a named connection keeps its own (`roles`).
    vars: sql::Vars,
    roles: roles::Roles,
    /// Every object's owner and privileges (`acl`).
    acls: acl::Acls,
    /// Each connection's open transaction (`transaction`).
    transactions: transaction::Transactions,
}

/// Index of the runtime that maintains (Solo's one runtime, or Maintenance).
const MAINTENANCE: usize = 0;
/// Index of the Interactive runtime when sharing is on.
const INTERACTIVE: usize = 1;

impl Engine {
    pub fn new(config: Config) -> Engine {
        assert!(config.workers > 0, "at least one worker");
        let registry = Arc::new(Registry::default());
        let roles = match config.sharing {
            false => vec![RuntimeRole::Solo],
            true => vec![RuntimeRole::Maintenance, RuntimeRole::Interactive],
        };
        let runtimes = roles
            .into_iter()
            .map(|role| RuntimeHandle::new(config.workers, role, Arc::clone(&registry)))
            .collect::<Vec<_>>();
        let scheduler = Scheduler::new(runtimes.len(), config.workers, config.seed);
        Engine {
            config,
            runtimes,
            scheduler,
            catalog: Catalog::default(),
            now: 0,
            sinces: BTreeMap::new(),
            holds: BTreeMap::new(),
            peeks: BTreeMap::new(),
            cancelled_peeks: BTreeMap::new(),
            named_peeks: BTreeMap::new(),
            dropped_under_peek: BTreeSet::new(),
            subscribes: BTreeMap::new(),
            reports: BTreeMap::new(),
            table_rows: BTreeMap::new(),
            table_keys: BTreeMap::new(),
            next_dataflow: 0,
            next_request: 0,
            registry,
            logging_reads: 0,
            constant_reads: 0,
            vars: sql::Vars::default(),
            roles: roles::Roles::default(),
            acls: acl::Acls::default(),
            transactions: transaction::Transactions::default(),
        }
    }

    /// The runtime that holds tables, maintains indexes and keeps logging.
    fn maintenance(&self) -> usize {
        MAINTENANCE
    }

    /// The runtime that serves reads.
    fn serving(&self) -> usize {
        self.peer().unwrap_or(MAINTENANCE)
    }

    /// The runtime that reads what maintenance publishes, if sharing is on.
    fn peer(&self) -> Option<usize> {
        self.config.sharing.then_some(INTERACTIVE)
    }

    /// Tells the peer runtime (if any) about a new table or index at `as_of`.
    fn announce(&self, id: GlobalId, as_of: Timestamp) {
        if let Some(peer) = self.peer() {
            self.runtimes[peer]
                .runtime
                .broadcast(Command::Peer { id, as_of });
        }
    }

    /// Every directive ends the same way: its outcome (an `Err` is shown
    /// as `error: ...`), then the default read policy and a settle.
    fn directive(&mut self, body: impl FnOnce(&mut Self) -> Result<Outcome, String>) -> Outcome {
        // The acting connection's path, for the names the directive gives.
        self.catalog.path = self.vars.path();
        let outcome = body(self).unwrap_or_else(Outcome::Error);
        self.finish_directive();
        outcome
    }

    pub fn statement(&mut self, sql: &str) -> Outcome {
        self.directive(|engine| Ok(engine.run_statements(sql)))
    }

    /// Several statements as one request of the simple query protocol, in
    /// an implicit transaction (`transaction`); one runs as `statement`
    /// would.
    pub fn simple(&mut self, sql: &str) -> Outcome {
        self.directive(|engine| Ok(engine.run_request(sql)))
    }

    pub fn query(&mut self, sql: &str) -> Outcome {
        self.directive(|engine| {
            let outcome = engine.run_query(sql);
            match outcome {
                Ok(Outcome::Error(e)) | Err(e) => {
                    engine.fail_transaction(&e);
                    Err(e)
                }
                outcome => outcome,
            }
        })
    }

    /// One SELECT (or `SHOW TIMEZONE`), in the acting connection's
    /// transaction if it has one.
    fn run_query(&mut self, sql: &str) -> Result<Outcome, String> {
        if let Some(e) = self.transaction_failed() {
            return Err(e);
        }
        let mut planned = self.plan_one_off(sql)?;
        match (planned.len(), planned.pop()) {
            (1, Some(statement @ (Statement::Select { .. } | Statement::ShowVariable { .. }))) => {
                self.gate(&statement)?;
                self.run_planned(statement)
            }
            _ => Err(crate::repr::unsupported(
                "a query that is not exactly one SELECT",
            )),
        }
    }

    /// The names of the columns `sql`, one SELECT, would return: planned
    /// against the catalog, not run (what a client learns from a prepared
    /// statement's description).
    pub fn describe(&mut self, sql: &str) -> Result<Vec<String>, String> {
        let mut planned = self.plan_one_off(sql)?;
        match (planned.len(), planned.pop()) {
            (1, Some(Statement::Select { columns, .. })) => {
                Ok(columns.into_iter().map(|c| c.name).collect())
            }
            // Materialize names the column for the variable.
            (1, Some(Statement::ShowVariable { column, .. })) => Ok(vec![column]),
            _ => Err("only a single SELECT can be described".into()),
        }
    }

    /// Plans `sql` with the connection its one-off queries read.
    fn plan_one_off(&mut self, sql: &str) -> Result<Vec<Statement>, String> {
        self.catalog.path = self.vars.path();
        self.catalog.session = Some(self.session());
        let planned = sql::plan(sql, &self.catalog);
        self.catalog.session = None;
        planned
    }

    pub fn peek(&mut self, index: &str, as_of: Option<Timestamp>) -> Outcome {
        self.directive(|engine| {
            let peek = engine.issue_index_peek(index, as_of)?;
            Ok(engine.answer(peek))
        })
    }

    pub fn issue_peek(&mut self, index: &str, as_of: Option<Timestamp>, name: &str) -> Outcome {
        self.directive(|engine| {
            if engine.named_peeks.contains_key(name) {
                return Err(format!("peek {name} already issued"));
            }
            let peek = engine.issue_index_peek(index, as_of)?;
            engine.named_peeks.insert(name.to_string(), peek);
            Ok(Outcome::Issued)
        })
    }

    pub fn await_peek(&mut self, name: &str) -> Outcome {
        self.directive(|engine| {
            let peek = *engine
                .named_peeks
                .get(name)
                .ok_or_else(|| format!("no peek named {name}"))?;
            engine.settle();
            let outcome = engine.take_peek(peek);
            if !matches!(outcome, Outcome::Pending(_)) {
                engine.named_peeks.remove(name);
            }
            Ok(outcome)
        })
    }

    /// Starts a SUBSCRIBE named `name`.
    pub fn subscribe(&mut self, name: &str, sql: &str) -> Outcome {
        self.directive(|engine| engine.start_subscribe(name, sql))
    }

    /// What subscribe `name` emitted since the last fetch, and where it stands.
    pub fn fetch(&mut self, name: &str) -> Outcome {
        self.directive(|engine| engine.fetch_subscribe(name))
    }

    /// Cancels subscribe `name`, releasing its holds.
    pub fn cancel(&mut self, name: &str) -> Outcome {
        self.directive(|engine| engine.cancel_subscribe_named(name))
    }

    pub fn hold(&mut self, on: &str, at: Timestamp, name: &str) -> Outcome {
        self.directive(|engine| {
            let id = engine.resolve_collection(on)?;
            if engine.holds.contains_key(name) {
                return Err(format!("hold {name} already exists"));
            }
            let since = engine.sinces[&id];
            if at < since {
                return Err(format!("cannot hold {on} at {at}: its since is [{since}]"));
            }
            engine.holds.insert(name.to_string(), (id, at));
            Ok(Outcome::Ok)
        })
    }

    pub fn release(&mut self, name: &str) -> Outcome {
        self.directive(|engine| match engine.holds.remove(name) {
            Some(_) => Ok(Outcome::Ok),
            None => Err(format!("no hold named {name}")),
        })
    }

    pub fn allow_compaction(&mut self, on: &str, since: Timestamp) -> Outcome {
        self.directive(|engine| {
            let id = engine.resolve_collection(on)?;
            engine.advance_since(id, since);
            Ok(Outcome::Ok)
        })
    }

    pub fn tick(&mut self) -> Outcome {
        self.directive(|engine| {
            engine.advance_clock();
            Ok(Outcome::Ok)
        })
    }

    pub fn pause(&mut self, role: Role, worker: Option<usize>) -> Outcome {
        self.on_units(role, worker, |engine, units| engine.scheduler.pause(&units))
    }

    pub fn resume(&mut self, role: Role, worker: Option<usize>) -> Outcome {
        self.on_units(role, worker, |engine, units| {
            engine.scheduler.resume(&units)
        })
    }

    pub fn step(&mut self, role: Role, worker: Option<usize>) -> Outcome {
        self.on_units(role, worker, |engine, units| {
            for unit in units {
                engine.step_unit(unit);
            }
        })
    }

    /// Applies `action` to the workers a pause/resume/step directive names.
    fn on_units(
        &mut self,
        role: Role,
        worker: Option<usize>,
        action: impl FnOnce(&mut Self, Vec<Unit>),
    ) -> Outcome {
        self.directive(|engine| {
            let units = engine.units(role, worker)?;
            action(engine, units);
            Ok(Outcome::Ok)
        })
    }

    /// Counted where reads and publications happened, on the workers.
    pub fn witness(&self) -> Witness {
        let counters = &self.registry.counters;
        Witness {
            shared_reads: Counters::get(&counters.shared_reads),
            local_reads: Counters::get(&counters.local_reads),
            published: Counters::get(&counters.published),
            logging_reads: self.logging_reads,
            constant_reads: self.constant_reads,
            // An index a pending peek still holds is not dropped on the
            // runtimes yet (see `dropped_under_peek`): its slot is no leak.
            stale_slots: (!self.scheduler.any_paused()).then(|| {
                let ids = self.registry.slot_ids().into_iter();
                ids.filter(|id| self.catalog.get(*id).is_none())
                    .filter(|id| !self.dropped_under_peek.contains(id))
                    .collect()
            }),
            points_astray: Counters::get(&counters.points_astray),
            unused_dataflows: Counters::get(&counters.unused_dataflows),
        }
    }

    /// The (runtime, worker) units a role and optional worker name.
    fn units(&self, role: Role, worker: Option<usize>) -> Result<Vec<Unit>, String> {
        let runtime = match role {
            Role::Maintenance => self.maintenance(),
            Role::Interactive => self.serving(),
        };
        match worker {
            Some(w) if w >= self.config.workers => Err(format!(
                "worker {w} does not exist ({} workers)",
                self.config.workers
            )),
            Some(w) => Ok(vec![(runtime, w)]),
            None => Ok((0..self.config.workers).map(|w| (runtime, w)).collect()),
        }
    }
}

impl RuntimeHandle {
    fn new(workers: usize, role: RuntimeRole, registry: Arc<Registry>) -> Self {
        let board = Arc::new(Mutex::new(Board::default()));
        let context = Context {
            role,
            board: Arc::clone(&board),
            registry,
        };
        RuntimeHandle {
            runtime: Runtime::new(workers, context),
            board,
        }
    }
}
