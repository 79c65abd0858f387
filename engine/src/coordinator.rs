//! The coordinator: catalog, clock, read policy, and the directives of a
//! scenario, translated into commands for the runtimes' workers.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use crate::builtin::Relation;
use crate::catalog::{Catalog, Detail, Entry, IndexDetail};
use crate::compute::ComputeState;
use crate::introspection;
use crate::peek;
use crate::plan::{Finishing, RelationPlan, SimpleSelect, Statement};
use crate::protocol::{
    Board, Command, Context, DataflowDesc, Import, PeekRequest, PeekResponse, PeekTarget, Reply,
    RuntimeRole, WorkerReport,
};
use crate::render::passes;
use crate::repr::{Diff, GlobalId, Row, Timestamp};
use crate::runtime::Runtime;
use crate::scheduler::{Scheduler, Unit};
use crate::sharing::{Counters, Registry};
use crate::{split, sql, Config, Outcome, Role, Witness};

/// Steps without quiescence after which the engine gives up (a livelock).
const STEP_LIMIT: u64 = 1_000_000;

/// A runtime and the board its workers leave peek frontiers on.
struct RuntimeHandle {
    runtime: Runtime<ComputeState>,
    board: Arc<Mutex<Board>>,
}

/// A peek the coordinator is waiting on.
struct PeekState {
    runtime: usize,
    target: PeekTarget,
    time: Timestamp,
    responses: BTreeMap<usize, PeekResponse>,
    /// Collections held at `time` while the peek is outstanding.
    holds: Vec<GlobalId>,
    /// Applied to the rows once every worker answered.
    finishing: Finishing,
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
    named_peeks: BTreeMap<String, u64>,
    reports: BTreeMap<u64, Vec<WorkerReport>>,
    /// Current contents of every table, to turn UPDATE/DELETE into updates.
    table_rows: BTreeMap<GlobalId, BTreeMap<Row, Diff>>,
    next_dataflow: u64,
    next_request: u64,
    registry: Arc<Registry>,
    /// Introspection reads that returned rows (see `Witness::logging_reads`).
    logging_reads: u64,
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
            named_peeks: BTreeMap::new(),
            reports: BTreeMap::new(),
            table_rows: BTreeMap::new(),
            next_dataflow: 0,
            next_request: 0,
            registry,
            logging_reads: 0,
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

    pub fn statement(&mut self, sql: &str) -> Outcome {
        let outcome = self.run_statements(sql);
        self.finish_directive();
        outcome
    }

    fn run_statements(&mut self, sql: &str) -> Outcome {
        let texts = match split::statements(sql) {
            Ok(texts) => texts,
            Err(e) => return Outcome::Error(e),
        };
        for text in texts {
            let planned = match sql::plan(&text, &self.catalog) {
                Ok(planned) => planned,
                Err(e) => return Outcome::Error(e),
            };
            for statement in planned {
                let outcome = self.execute(statement);
                if !matches!(outcome, Outcome::Ok | Outcome::Rows(_)) {
                    return outcome;
                }
            }
        }
        Outcome::Ok
    }

    pub fn query(&mut self, sql: &str) -> Outcome {
        let outcome = match sql::plan(sql, &self.catalog) {
            Err(e) => Outcome::Error(e),
            Ok(mut planned) => match (planned.len(), planned.pop()) {
                (1, Some(statement @ Statement::Select { .. })) => self.execute(statement),
                _ => Outcome::Error("query directive takes exactly one SELECT".into()),
            },
        };
        self.finish_directive();
        outcome
    }

    pub fn peek(&mut self, index: &str, as_of: Option<Timestamp>) -> Outcome {
        let outcome = match self.issue_index_peek(index, as_of) {
            Err(e) => Outcome::Error(e),
            Ok(peek) => {
                self.settle();
                let outcome = self.take_peek(peek);
                if matches!(outcome, Outcome::Pending(_)) {
                    self.cancel_peek(peek);
                }
                outcome
            }
        };
        self.finish_directive();
        outcome
    }

    pub fn issue_peek(&mut self, index: &str, as_of: Option<Timestamp>, name: &str) -> Outcome {
        let outcome = if self.named_peeks.contains_key(name) {
            Outcome::Error(format!("peek {name} already issued"))
        } else {
            match self.issue_index_peek(index, as_of) {
                Err(e) => Outcome::Error(e),
                Ok(peek) => {
                    self.named_peeks.insert(name.to_string(), peek);
                    Outcome::Issued
                }
            }
        };
        self.finish_directive();
        outcome
    }

    pub fn await_peek(&mut self, name: &str) -> Outcome {
        let outcome = match self.named_peeks.get(name).copied() {
            None => Outcome::Error(format!("no peek named {name}")),
            Some(peek) => {
                self.settle();
                let outcome = self.take_peek(peek);
                if !matches!(outcome, Outcome::Pending(_)) {
                    self.named_peeks.remove(name);
                }
                outcome
            }
        };
        self.finish_directive();
        outcome
    }

    pub fn hold(&mut self, on: &str, at: Timestamp, name: &str) -> Outcome {
        let outcome = match self.resolve_collection(on) {
            Err(e) => Outcome::Error(e),
            Ok(_) if self.holds.contains_key(name) => {
                Outcome::Error(format!("hold {name} already exists"))
            }
            Ok(id) => {
                let since = self.sinces[&id];
                if at < since {
                    Outcome::Error(format!("cannot hold {on} at {at}: its since is [{since}]"))
                } else {
                    self.holds.insert(name.to_string(), (id, at));
                    Outcome::Ok
                }
            }
        };
        self.finish_directive();
        outcome
    }

    pub fn release(&mut self, name: &str) -> Outcome {
        let outcome = match self.holds.remove(name) {
            Some(_) => Outcome::Ok,
            None => Outcome::Error(format!("no hold named {name}")),
        };
        self.finish_directive();
        outcome
    }

    pub fn allow_compaction(&mut self, on: &str, since: Timestamp) -> Outcome {
        let outcome = match self.resolve_collection(on) {
            Err(e) => Outcome::Error(e),
            Ok(id) => {
                self.advance_since(id, since);
                Outcome::Ok
            }
        };
        self.finish_directive();
        outcome
    }

    pub fn tick(&mut self) -> Outcome {
        self.advance_clock();
        self.finish_directive();
        Outcome::Ok
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
        let outcome = match self.units(role, worker) {
            Err(e) => Outcome::Error(e),
            Ok(units) => {
                action(self, units);
                Outcome::Ok
            }
        };
        self.finish_directive();
        outcome
    }

    /// Counted where reads and publications happened, on the workers.
    pub fn witness(&self) -> Witness {
        let counters = &self.registry.counters;
        Witness {
            shared_reads: Counters::get(&counters.shared_reads),
            local_reads: Counters::get(&counters.local_reads),
            published: Counters::get(&counters.published),
            logging_reads: self.logging_reads,
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

    // ----- statements -------------------------------------------------------

    fn execute(&mut self, statement: Statement) -> Outcome {
        match statement {
            Statement::CreateTable { name, columns } => {
                let id = self.catalog.allocate_id();
                let now = self.now;
                self.runtimes[self.maintenance()]
                    .runtime
                    .broadcast(Command::CreateTable { id, now });
                self.announce(id, now);
                self.catalog.insert(Entry {
                    id,
                    name,
                    columns,
                    detail: Detail::Table,
                });
                self.sinces.insert(id, now);
                self.table_rows.insert(id, BTreeMap::new());
                self.settle();
                Outcome::Ok
            }
            Statement::Insert { table, rows } => {
                self.write(table, rows.into_iter().map(|r| (r, 1)).collect());
                Outcome::Ok
            }
            Statement::Update {
                table,
                assignments,
                predicates,
            } => {
                let mut updates = Vec::new();
                for (row, count) in self.table_rows[&table].clone() {
                    match passes(&predicates, &row) {
                        Err(e) => return Outcome::Error(e.0),
                        Ok(false) => {}
                        Ok(true) => {
                            let mut new = row.clone();
                            for (column, expr) in &assignments {
                                match expr.eval(&row) {
                                    Ok(d) => new[*column] = d,
                                    Err(e) => return Outcome::Error(e.0),
                                }
                            }
                            updates.push((row, -count));
                            updates.push((new, count));
                        }
                    }
                }
                self.write(table, updates);
                Outcome::Ok
            }
            Statement::Delete { table, predicates } => {
                let mut updates = Vec::new();
                for (row, count) in self.table_rows[&table].clone() {
                    match passes(&predicates, &row) {
                        Err(e) => return Outcome::Error(e.0),
                        Ok(false) => {}
                        Ok(true) => updates.push((row, -count)),
                    }
                }
                self.write(table, updates);
                Outcome::Ok
            }
            Statement::CreateView {
                name,
                columns,
                plan,
            } => {
                let id = self.catalog.allocate_id();
                self.catalog.insert(Entry {
                    id,
                    name,
                    columns,
                    detail: Detail::View { plan },
                });
                Outcome::Ok
            }
            Statement::CreateIndex { name, on, key } => self.create_index(name, on, key),
            Statement::DropIndex { id } => self.drop_object(id),
            Statement::DropView { id } => self.drop_object(id),
            Statement::DropTable { id } => self.drop_object(id),
            Statement::Select {
                plan,
                as_of,
                finishing,
                simple,
                ..
            } => self.select(plan, as_of, finishing, simple),
        }
    }

    /// Commits `updates` to `table` at `now + 1`, then advances the clock.
    fn write(&mut self, table: GlobalId, updates: Vec<(Row, Diff)>) {
        let contents = self.table_rows.get_mut(&table).expect("table exists");
        for (row, diff) in &updates {
            let count = contents.entry(row.clone()).or_insert(0);
            *count += diff;
            if *count == 0 {
                contents.remove(row);
            }
        }
        self.runtimes[self.maintenance()]
            .runtime
            .command(0, Command::Write { table, updates });
        self.advance_clock();
    }

    /// `now` advances by one and every table's upper becomes `now + 1`.
    fn advance_clock(&mut self) {
        self.now += 1;
        let upper = self.now + 1;
        self.runtimes[self.maintenance()]
            .runtime
            .broadcast(Command::AdvanceTables { upper });
        self.settle();
    }

    fn create_index(&mut self, name: String, on: GlobalId, key: Vec<usize>) -> Outcome {
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
        let (imports, reexport_of) = match target {
            Some(target) => {
                self.runtimes[maintenance]
                    .runtime
                    .broadcast(Command::Reexport {
                        id,
                        target,
                        dataflow_id,
                        as_of,
                    });
                (vec![target], Some(target))
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
                let imports = desc.imports.keys().copied().collect();
                self.runtimes[maintenance]
                    .runtime
                    .broadcast(Command::CreateIndex {
                        id,
                        desc,
                        key: key.clone(),
                    });
                (imports, None)
            }
        };
        let columns = plan_columns(&self.catalog, on);
        self.catalog.insert(Entry {
            id,
            name,
            columns,
            detail: Detail::Index(IndexDetail {
                on,
                key,
                dataflow_id,
                reexport_of,
                imports,
            }),
        });
        self.sinces.insert(id, as_of);
        self.announce(id, as_of);
        self.settle();
        Outcome::Ok
    }

    fn drop_object(&mut self, id: GlobalId) -> Outcome {
        let entry = self
            .catalog
            .get(id)
            .expect("planner resolved the id")
            .clone();
        // An index never blocks a drop: a dataflow importing it keeps the
        // arrangement alive on the workers after the catalog forgets it.
        if entry.index().is_none() {
            let blocking = self
                .catalog
                .dependents(id)
                .into_iter()
                .find(|d| d.index().is_none_or(|i| i.on == id));
            if let Some(dependent) = blocking {
                return Outcome::Error(format!(
                    "cannot drop {} \"{}\": still depended upon by {} \"{}\"",
                    entry.kind().name(),
                    entry.name,
                    dependent.kind().name(),
                    dependent.name
                ));
            }
        }
        self.catalog.remove(id);
        self.sinces.remove(&id);
        self.holds.retain(|_, (on, _)| *on != id);
        let maintenance = &self.runtimes[self.maintenance()].runtime;
        match entry.detail {
            Detail::Index(_) => {
                maintenance.broadcast(Command::DropExport { id });
            }
            Detail::Table => {
                self.table_rows.remove(&id);
                maintenance.broadcast(Command::DropTable { id });
            }
            Detail::View { .. } => {}
        }
        if let (Some(peer), false) = (self.peer(), matches!(entry.detail, Detail::View { .. })) {
            self.runtimes[peer]
                .runtime
                .broadcast(Command::DropPeer { id });
        }
        self.settle();
        Outcome::Ok
    }

    // ----- reads ------------------------------------------------------------

    fn select(
        &mut self,
        plan: RelationPlan,
        as_of: Option<Timestamp>,
        finishing: Finishing,
        simple: Option<SimpleSelect>,
    ) -> Outcome {
        let time = as_of.unwrap_or(self.now);
        let introspection = plan.reads_any(&|id| Relation::by_id(id).is_some());
        // `SELECT * FROM x [WHERE ...]` on an indexed x: a fast-path peek.
        if let Some(simple) = simple.filter(|_| !introspection) {
            let index = self
                .catalog
                .indexes_on(simple.relation)
                .map(|(e, detail)| (e.id, detail.key.clone()))
                .next();
            if let Some((index, key)) = index {
                let columns = plan_columns(&self.catalog, simple.relation);
                let key = simple.literal_key(&key, &columns);
                let peek = self.issue_peek_on(index, time, simple.predicates, key, finishing);
                return self.answer(peek);
            }
        }
        let runtime = if introspection {
            match self.report() {
                Ok(()) => self.maintenance(),
                Err(pending) => return Outcome::Pending(pending),
            }
        } else {
            self.serving()
        };
        self.next_request += 1;
        let peek_id = self.next_request;
        let desc = match self.dataflow_desc(peek_id, format!("Transient {peek_id}"), plan, time) {
            Ok(desc) => desc,
            Err(e) => return Outcome::Error(e),
        };
        let holds: Vec<GlobalId> = desc
            .imports
            .iter()
            .filter(|(_, (import, _))| !matches!(import, Import::Constant(_)))
            .map(|(id, _)| *id)
            .collect();
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::CreateTransient {
                peek: peek_id,
                desc,
            });
        let request = PeekRequest {
            id: peek_id,
            target: PeekTarget::Transient,
            time,
            predicates: Vec::new(),
            key: None,
        };
        self.send_peek(runtime, request, holds, finishing);
        let outcome = self.answer(peek_id);
        if introspection && matches!(outcome, Outcome::Rows(_)) {
            self.logging_reads += 1;
        }
        outcome
    }

    /// Waits for `peek` and returns its outcome; a pending read is cancelled.
    fn answer(&mut self, peek: u64) -> Outcome {
        self.settle();
        let outcome = self.take_peek(peek);
        if matches!(outcome, Outcome::Pending(_)) {
            self.cancel_peek(peek);
        }
        outcome
    }

    fn issue_index_peek(&mut self, index: &str, as_of: Option<Timestamp>) -> Result<u64, String> {
        let (id, _) = crate::plan::Resolver::resolve(&self.catalog, index)
            .filter(|(_, kind)| *kind == crate::plan::ObjectKind::Index)
            .ok_or_else(|| format!("unknown index '{index}'"))?;
        let time = as_of.unwrap_or(self.now);
        Ok(self.issue_peek_on(id, time, Vec::new(), None, Finishing::default()))
    }

    fn issue_peek_on(
        &mut self,
        index: GlobalId,
        time: Timestamp,
        predicates: Vec<crate::plan::ScalarExpr>,
        key: Option<Row>,
        finishing: Finishing,
    ) -> u64 {
        self.next_request += 1;
        let id = self.next_request;
        let request = PeekRequest {
            id,
            target: PeekTarget::Index(index),
            time,
            predicates,
            key,
        };
        let runtime = self.serving();
        self.send_peek(runtime, request, vec![index], finishing);
        id
    }

    fn send_peek(
        &mut self,
        runtime: usize,
        request: PeekRequest,
        holds: Vec<GlobalId>,
        finishing: Finishing,
    ) {
        let id = request.id;
        self.peeks.insert(
            id,
            PeekState {
                runtime,
                target: request.target,
                time: request.time,
                responses: BTreeMap::new(),
                holds,
                finishing,
            },
        );
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::Peek(request));
    }

    /// The peek's outcome if every worker answered, else its diagnosis.
    fn take_peek(&mut self, peek: u64) -> Outcome {
        let state = &self.peeks[&peek];
        if state.responses.len() < self.config.workers {
            return Outcome::Pending(self.diagnose(peek));
        }
        let state = self.peeks.remove(&peek).expect("present");
        self.release_peek(peek, &state);
        match peek::combine(state.responses.into_values().collect()) {
            Err(e) => Outcome::Error(e),
            Ok(rows) => Outcome::Rows(finish(rows, &state.finishing)),
        }
    }

    fn cancel_peek(&mut self, peek: u64) {
        if let Some(state) = self.peeks.remove(&peek) {
            self.release_peek(peek, &state);
        }
    }

    /// Tells the workers to forget the peek (dropping any transient dataflow).
    fn release_peek(&mut self, peek: u64, state: &PeekState) {
        let handle = &self.runtimes[state.runtime];
        handle.board.lock().expect("board").forget(peek);
        handle.runtime.broadcast(Command::CancelPeek { peek });
    }

    fn diagnose(&self, peek: u64) -> String {
        let state = &self.peeks[&peek];
        let what = match state.target {
            PeekTarget::Transient => "transient dataflow".to_string(),
            PeekTarget::Index(target) => {
                let name = self
                    .catalog
                    .get(target)
                    .map_or("?".into(), |e| e.name.clone());
                format!("{name} ({target})")
            }
        };
        let board = self.runtimes[state.runtime].board.lock().expect("board");
        // Workers in the same state are named together, and all of them as
        // "every worker", so the text does not depend on the worker count
        // unless the workers really differ.
        let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for w in (0..self.config.workers).filter(|w| !state.responses.contains_key(w)) {
            let paused = if self.scheduler.is_paused((state.runtime, w)) {
                "paused, "
            } else {
                ""
            };
            let seen = match board.get(peek, w) {
                None => "has not seen the peek".to_string(),
                Some(f) => format!(
                    "since {} oks upper {} errs upper {}",
                    frontier(f.since),
                    frontier(f.oks_upper),
                    frontier(f.errs_upper)
                ),
            };
            groups.entry(format!("{paused}{seen}")).or_default().push(w);
        }
        let waits: Vec<String> = match groups.len() {
            1 if state.responses.is_empty() => groups
                .into_keys()
                .map(|g| format!("every worker {g}"))
                .collect(),
            _ => groups
                .into_iter()
                .map(|(g, workers)| {
                    let names: Vec<String> = workers.iter().map(|w| w.to_string()).collect();
                    format!("worker {} {g}", names.join(", "))
                })
                .collect(),
        };
        format!(
            "read of {what} at {} waits: {}",
            state.time,
            waits.join("; ")
        )
    }

    /// Gathers a report from every worker of the logging runtime.
    fn report(&mut self) -> Result<(), String> {
        self.reports.clear();
        self.next_request += 1;
        let request = self.next_request;
        let runtime = self.maintenance();
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::Report { request });
        self.settle();
        let reported = self.reports.get(&request).cloned().unwrap_or_default();
        if reported.len() < self.config.workers {
            let missing: Vec<String> = (0..self.config.workers)
                .filter(|w| !reported.iter().any(|r| r.worker == *w))
                .map(|w| w.to_string())
                .collect();
            return Err(format!(
                "introspection waits on paused worker(s) {}",
                missing.join(", ")
            ));
        }
        Ok(())
    }

    /// Builds a dataflow description for `plan` at `as_of`: catalog relations
    /// become imports (an index of the relation if it has one, else the table,
    /// else the view's definition inlined), introspection relations constants.
    fn dataflow_desc(
        &mut self,
        id: u64,
        name: String,
        plan: RelationPlan,
        as_of: Timestamp,
    ) -> Result<DataflowDesc, String> {
        let mut imports = BTreeMap::new();
        let plan = self.lower(plan, &mut imports)?;
        for (import_id, (import, _)) in &imports {
            if matches!(import, Import::Constant(_)) {
                continue;
            }
            let since = self.sinces[import_id];
            if since > as_of {
                return Err(peek::compaction_error(since, as_of));
            }
        }
        Ok(DataflowDesc {
            id,
            name,
            as_of,
            imports,
            plan,
        })
    }

    fn lower(
        &self,
        plan: RelationPlan,
        imports: &mut BTreeMap<GlobalId, (Import, usize)>,
    ) -> Result<RelationPlan, String> {
        let lower = |p: Box<RelationPlan>, imports: &mut BTreeMap<GlobalId, (Import, usize)>| {
            self.lower(*p, imports).map(Box::new)
        };
        Ok(match plan {
            RelationPlan::Get(id) => {
                if let Some(relation) = Relation::by_id(id) {
                    let reports = self
                        .reports
                        .values()
                        .next_back()
                        .cloned()
                        .unwrap_or_default();
                    let rows = introspection::rows(relation, &self.catalog, &reports);
                    imports.insert(id, (Import::Constant(rows), relation.columns().len()));
                    return Ok(RelationPlan::Get(id));
                }
                let entry = self
                    .catalog
                    .get(id)
                    .ok_or_else(|| format!("unknown catalog item '{id}'"))?;
                let arity = entry.columns.len();
                if let Some((index, _)) = self.catalog.indexes_on(id).next() {
                    imports.insert(index.id, (Import::Index(index.id), arity));
                    RelationPlan::Get(index.id)
                } else {
                    match &entry.detail {
                        Detail::Table => {
                            imports.insert(id, (Import::Table(id), arity));
                            RelationPlan::Get(id)
                        }
                        Detail::View { plan } => self.lower(plan.clone(), imports)?,
                        Detail::Index(_) => {
                            return Err(format!("cannot read index {} as a relation", entry.name))
                        }
                    }
                }
            }
            RelationPlan::Constant { rows, arity } => RelationPlan::Constant { rows, arity },
            RelationPlan::Map { input, exprs } => RelationPlan::Map {
                input: lower(input, imports)?,
                exprs,
            },
            RelationPlan::Filter { input, predicates } => RelationPlan::Filter {
                input: lower(input, imports)?,
                predicates,
            },
            RelationPlan::Project { input, columns } => RelationPlan::Project {
                input: lower(input, imports)?,
                columns,
            },
            RelationPlan::Join {
                inputs,
                equivalences,
            } => RelationPlan::Join {
                inputs: inputs
                    .into_iter()
                    .map(|i| self.lower(i, imports))
                    .collect::<Result<_, _>>()?,
                equivalences,
            },
            RelationPlan::Reduce {
                input,
                group_key,
                aggregates,
                global,
            } => RelationPlan::Reduce {
                input: lower(input, imports)?,
                group_key,
                aggregates,
                global,
            },
            RelationPlan::Distinct { input } => RelationPlan::Distinct {
                input: lower(input, imports)?,
            },
        })
    }

    // ----- time and compaction ---------------------------------------------

    fn resolve_collection(&self, name: &str) -> Result<GlobalId, String> {
        match crate::plan::Resolver::resolve(&self.catalog, name) {
            Some((id, _)) if self.sinces.contains_key(&id) => Ok(id),
            Some(_) => Err(format!("{name} is not a table or index")),
            None => Err(format!("unknown catalog item '{name}'")),
        }
    }

    /// The default read policy, after every directive: each since advances
    /// to `now`, held back by holds, pending peeks, and the since of every
    /// live index dataflow that imports it.
    fn finish_directive(&mut self) {
        // Newest first: an index only imports older objects, so importers'
        // sinces are settled before the collections they hold.
        let ids: Vec<GlobalId> = self.sinces.keys().rev().copied().collect();
        for id in ids {
            let mut target = self.now;
            for (on, at) in self.holds.values() {
                if *on == id {
                    target = target.min(*at);
                }
            }
            for state in self.peeks.values() {
                if state.holds.contains(&id) {
                    target = target.min(state.time);
                }
            }
            for entry in self.catalog.entries() {
                if let Some(detail) = entry.index() {
                    if detail.imports.contains(&id) {
                        target = target.min(self.sinces[&entry.id]);
                    }
                }
            }
            self.advance_since(id, target);
        }
        self.settle();
    }

    /// Moves `id`'s since forward to `since` (never back) on every runtime.
    fn advance_since(&mut self, id: GlobalId, since: Timestamp) {
        let current = self.sinces.get_mut(&id).expect("collection has a since");
        if since <= *current {
            return;
        }
        *current = since;
        for handle in &self.runtimes {
            handle
                .runtime
                .broadcast(Command::AllowCompaction { id, since });
        }
    }

    // ----- stepping ---------------------------------------------------------

    /// Steps runnable workers until a full round of them does nothing.
    fn settle(&mut self) {
        let mut idle: BTreeSet<Unit> = BTreeSet::new();
        let mut steps = 0u64;
        loop {
            let runnable = self.scheduler.runnable();
            if runnable.iter().all(|u| idle.contains(u)) {
                return;
            }
            let Some(unit) = self.scheduler.next() else {
                return;
            };
            if self.step_unit(unit) {
                idle.clear();
            } else {
                idle.insert(unit);
            }
            steps += 1;
            assert!(steps < STEP_LIMIT, "no quiescence after {STEP_LIMIT} steps");
        }
    }

    /// Steps one worker and files its replies; returns whether it was active.
    fn step_unit(&mut self, (runtime, worker): Unit) -> bool {
        let mut replies = Vec::new();
        let active = self.runtimes[runtime]
            .runtime
            .step(worker, |r| replies.push(r));
        for reply in replies {
            match reply {
                Reply::Peek {
                    peek,
                    worker,
                    response,
                } => {
                    if let Some(state) = self.peeks.get_mut(&peek) {
                        state.responses.insert(worker, response);
                    }
                }
                Reply::Report { request, report } => {
                    self.reports.entry(request).or_default().push(report);
                }
            }
        }
        active
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

/// The columns of a relation, for an index on it.
fn plan_columns(catalog: &Catalog, id: GlobalId) -> Vec<crate::repr::Column> {
    crate::plan::Resolver::columns(catalog, id).unwrap_or_default()
}

/// Applies ORDER BY and LIMIT.
fn finish(mut rows: Vec<Row>, finishing: &Finishing) -> Vec<Row> {
    if !finishing.order_by.is_empty() {
        rows.sort_by(|a, b| {
            for (column, descending) in &finishing.order_by {
                let ordering = a[*column].cmp(&b[*column]);
                let ordering = if *descending {
                    ordering.reverse()
                } else {
                    ordering
                };
                if ordering.is_ne() {
                    return ordering;
                }
            }
            std::cmp::Ordering::Equal
        });
    }
    if let Some(limit) = finishing.limit {
        rows.truncate(limit);
    }
    rows
}

/// A frontier of one timestamp as the diagnosis prints it.
fn frontier(t: Option<Timestamp>) -> String {
    t.map_or("[]".into(), |t| format!("[{t}]"))
}
