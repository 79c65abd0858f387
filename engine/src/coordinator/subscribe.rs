//! SUBSCRIBE: a read that stays. Its dataflow runs on the serving runtime
//! (the interactive one under sharing) from its `as_of` until its `UP TO`,
//! or until it is cancelled or an error in its input ends it. Workers send
//! what it emits; the coordinator completes a time once every worker's
//! frontier has passed it, consolidates it, and keeps it for the next
//! fetch. It holds its inputs at its frontier (the read policy counts it),
//! and drops its dataflow, releasing every hold, once it ends.

use std::collections::BTreeMap;

use super::builtin::Relation;
use super::introspection::SubscribeExport;
use super::Engine;
use crate::api::{Outcome, Progress};
use crate::protocol::{Command, Import};
use crate::repr::chars::pad_row;
use crate::repr::{DataflowError, Datum, Diff, GlobalId, Row, ScalarType, Timestamp};
use crate::sql::{self, Subscribe};

/// A worker's output frontier (`None`: the empty frontier, it is done).
type Frontier = Option<Timestamp>;

/// A subscribe the coordinator runs.
pub(super) struct SubscribeState {
    /// Its id in commands and replies.
    id: u64,
    /// Its catalog dataflow id (introspection lists it).
    dataflow_id: u64,
    runtime: usize,
    up_to: Frontier,
    /// The collections its dataflow imports, held at its frontier.
    inputs: Vec<GlobalId>,
    /// The relations its SQL names: dropping one ends it.
    depends_on: Vec<GlobalId>,
    /// Each worker's last reported output frontier.
    frontiers: BTreeMap<usize, Frontier>,
    /// Updates received at times not yet complete.
    pending: BTreeMap<Timestamp, BTreeMap<Result<Row, DataflowError>, Diff>>,
    /// Net errors over every completed time.
    errors: BTreeMap<DataflowError, Diff>,
    /// Completed changes not yet fetched.
    ready: Vec<Row>,
    /// Every time before it is complete.
    frontier: Timestamp,
    /// Its changes' types, to show a `char` padded by (`shown_changes`).
    shown: Vec<ScalarType>,
    /// Set once it has ended; its dataflow is then dropped.
    end: Option<Progress>,
    /// Whether its dataflow was dropped.
    dropped: bool,
}

impl SubscribeState {
    /// Files one worker's reply.
    pub(super) fn receive(
        &mut self,
        worker: usize,
        updates: Vec<(Result<Row, DataflowError>, Timestamp, Diff)>,
        frontier: Frontier,
    ) {
        for (result, time, diff) in updates {
            *self
                .pending
                .entry(time)
                .or_default()
                .entry(result)
                .or_insert(0) += diff;
        }
        self.frontiers.insert(worker, frontier);
    }

    /// Completes every time all `workers` have passed, in order: its
    /// errors first (a positive error ends the subscribe), then its rows.
    fn complete(&mut self, workers: usize) {
        if self.end.is_some() || self.frontiers.len() < workers {
            return;
        }
        // `None` beyond every time: the input ended.
        let reached = self
            .frontiers
            .values()
            .fold(None, |m: Frontier, f| match (m, *f) {
                (None, f) => f,
                (m, None) => m,
                (Some(a), Some(b)) => Some(a.min(b)),
            });
        let through = match (reached, self.up_to) {
            (Some(r), Some(u)) => Some(r.min(u)),
            (r, u) => r.or(u),
        };
        while let Some((&time, _)) = self.pending.first_key_value() {
            if through.is_some_and(|t| time >= t) {
                break;
            }
            let (time, updates) = self.pending.pop_first().expect("present");
            for (result, diff) in &updates {
                if let Err(e) = result {
                    *self.errors.entry(e.clone()).or_insert(0) += diff;
                }
            }
            self.errors.retain(|_, d| *d != 0);
            if let Some((error, _)) = self.errors.iter().find(|(_, d)| **d > 0) {
                self.end = Some(Progress::Failed(error.0.clone()));
                return;
            }
            for (result, diff) in updates {
                if let (Ok(row), true) = (result, diff != 0) {
                    let mut line = vec![Datum::Int64(time as i64), Datum::Int64(diff)];
                    line.extend(row);
                    self.ready.push(line);
                }
            }
        }
        match through {
            Some(t) => self.frontier = self.frontier.max(t),
            None => self.end = Some(Progress::Complete(None)),
        }
        if through.is_some() && through == self.up_to {
            self.end = Some(Progress::Complete(self.up_to));
        }
    }

    /// What it waits on: its frontier, and each worker's if they differ.
    fn waiting(&self, workers: usize) -> String {
        let frontier = |f: &Frontier| f.map_or("[]".into(), |t| format!("[{t}]"));
        let seen: Vec<String> = (0..workers)
            .map(|w| match self.frontiers.get(&w) {
                Some(f) => format!("worker {w} at {}", frontier(f)),
                None => format!("worker {w} has not started"),
            })
            .collect();
        let agree = self.frontiers.len() == workers
            && self
                .frontiers
                .values()
                .all(|f| Some(f) == self.frontiers.get(&0));
        match (agree, self.frontiers.get(&0)) {
            (true, Some(Some(f))) if *f == self.frontier => format!("frontier [{f}]"),
            (true, Some(f)) => format!(
                "frontier [{}]: every worker at {}",
                self.frontier,
                frontier(f)
            ),
            _ => format!("frontier [{}]: {}", self.frontier, seen.join(", ")),
        }
    }
}

impl Engine {
    /// Plans a SUBSCRIBE and builds its dataflow on the serving runtime.
    pub(super) fn start_subscribe(&mut self, name: &str, sql: &str) -> Result<Outcome, String> {
        if self.subscribes.contains_key(name) {
            return Err(format!("subscribe {name} already exists"));
        }
        if self.in_transaction() {
            return Err(crate::repr::unsupported("SUBSCRIBE in a transaction"));
        }
        self.catalog.path = self.vars.path();
        let Subscribe {
            plan,
            columns,
            as_of,
            up_to,
        } = sql::plan_subscribe(sql, &self.catalog)?;
        if plan.reads_any(&|id| Relation::by_id(id).is_some()) {
            return Err(crate::repr::unsupported(
                "SUBSCRIBE to introspection relations",
            ));
        }
        let as_of = as_of.unwrap_or(self.now);
        if let Some(up_to) = up_to.filter(|u| *u < as_of) {
            return Err(format!(
                "UP TO ({up_to}) must not be before AS OF ({as_of})"
            ));
        }
        let depends_on = super::peeks::named_relations(&plan);
        // A refused subscribe takes no dataflow id.
        let dataflow_id = self.next_dataflow + 1;
        let desc = self.dataflow_desc(dataflow_id, format!("Subscribe {name}"), plan, as_of)?;
        self.next_dataflow = dataflow_id;
        self.next_request += 1;
        let id = self.next_request;
        let inputs = desc
            .imports
            .iter()
            .filter(|(_, (import, _))| !matches!(import, Import::Constant(_)))
            .map(|(id, _)| *id)
            .collect();
        let runtime = self.serving();
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::CreateSubscribe {
                subscribe: id,
                desc,
                up_to,
            });
        self.subscribes.insert(
            name.to_string(),
            SubscribeState {
                id,
                dataflow_id,
                runtime,

                up_to,
                inputs,
                depends_on,
                frontiers: BTreeMap::new(),
                pending: BTreeMap::new(),
                errors: BTreeMap::new(),
                ready: Vec::new(),
                shown: shown_changes(&columns),
                frontier: as_of,
                end: None,
                dropped: false,
            },
        );
        Ok(Outcome::Ok)
    }

    /// The changes completed since the last fetch, and where it stands.
    /// An ended subscribe is forgotten once its end was fetched.
    pub(super) fn fetch_subscribe(&mut self, name: &str) -> Result<Outcome, String> {
        self.settle_subscribes();
        let workers = self.config.workers;
        let state = self
            .subscribes
            .get_mut(name)
            .ok_or_else(|| format!("no subscribe named {name}"))?;
        let rows = std::mem::take(&mut state.ready);
        let rows = rows.into_iter().map(|r| pad_row(r, &state.shown)).collect();
        let progress = match &state.end {
            Some(end) => end.clone(),
            None => Progress::Waiting(state.waiting(workers)),
        };
        // A fetch is a read; one of a subscribe that imports no table or
        // index (constants, `generate_series`) had nothing to share.
        if state.inputs.is_empty() {
            self.constant_reads += 1;
        }
        if state.end.is_some() {
            self.subscribes.remove(name);
        }
        Ok(Outcome::Updates { rows, progress })
    }

    /// Cancels a subscribe: its dataflow is dropped, its holds released.
    pub(super) fn cancel_subscribe_named(&mut self, name: &str) -> Result<Outcome, String> {
        let state = self
            .subscribes
            .remove(name)
            .ok_or_else(|| format!("no subscribe named {name}"))?;
        if !state.dropped {
            self.drop_subscribe_dataflow(state.id, state.runtime);
        }
        Ok(Outcome::Ok)
    }

    /// Files a worker's reply for subscribe `id`.
    pub(super) fn receive_subscribe(
        &mut self,
        id: u64,
        worker: usize,
        updates: Vec<(Result<Row, DataflowError>, Timestamp, Diff)>,
        frontier: Frontier,
    ) {
        if let Some(state) = self.subscribes.values_mut().find(|s| s.id == id) {
            state.receive(worker, updates, frontier);
        }
    }

    /// Settles the workers; a subscribe that ended has its dataflow
    /// dropped, and the workers settle again, until none ends.
    pub(super) fn settle_subscribes(&mut self) {
        self.settle();
        while self.end_subscribes() {
            self.settle();
        }
    }

    /// Completes what every worker of each subscribe has passed, and drops
    /// the dataflow of each that ended; returns whether any did.
    pub(super) fn end_subscribes(&mut self) -> bool {
        let workers = self.config.workers;
        let mut ended = Vec::new();
        for state in self.subscribes.values_mut() {
            state.complete(workers);
            if state.end.is_some() && !state.dropped {
                state.dropped = true;
                ended.push((state.id, state.runtime));
            }
        }
        for (subscribe, runtime) in &ended {
            self.drop_subscribe_dataflow(*subscribe, *runtime);
        }
        !ended.is_empty()
    }

    /// Ends every live subscribe whose SQL names `relation` (dropped), as
    /// the real system does: the changes its workers completed before the
    /// drop stay to be fetched, then the error; its dataflow goes at once.
    pub(super) fn end_subscribes_reading(&mut self, relation: GlobalId, name: &str) {
        let workers = self.config.workers;
        let mut ended = Vec::new();
        for state in self.subscribes.values_mut() {
            if state.end.is_some() || !state.depends_on.contains(&relation) {
                continue;
            }
            state.complete(workers);
            if state.end.is_none() {
                let error =
                    format!("subscribe has been terminated because underlying {name} was dropped");
                state.end = Some(Progress::Failed(error));
            }
            state.dropped = true;
            ended.push((state.id, state.runtime));
        }
        for (subscribe, runtime) in ended {
            self.drop_subscribe_dataflow(subscribe, runtime);
        }
    }

    fn drop_subscribe_dataflow(&self, subscribe: u64, runtime: usize) {
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::DropSubscribe { subscribe });
    }

    /// What introspection shows of the live subscribes, in name order.
    pub(super) fn subscribe_exports(&self) -> Vec<SubscribeExport> {
        self.subscribes
            .iter()
            .filter(|(_, s)| s.end.is_none())
            .map(|(name, s)| SubscribeExport {
                dataflow_id: s.dataflow_id,
                name: name.clone(),
                inputs: s.inputs.clone(),
                frontier: s.frontier,
            })
            .collect()
    }

    /// The read holds of live subscribes: each input at its frontier.
    pub(super) fn subscribe_holds(&self) -> Vec<(GlobalId, Timestamp)> {
        self.subscribes
            .values()
            .filter(|s| s.end.is_none())
            .flat_map(|s| s.inputs.iter().map(|id| (*id, s.frontier)))
            .collect()
    }
}

/// The types a subscribe's changes are shown by: its time and diff, then
/// its columns' (none, unless one is a `char`: `repr::chars::shown`).
fn shown_changes(columns: &[crate::repr::Column]) -> Vec<ScalarType> {
    let shown = crate::repr::chars::shown(columns);
    match shown.is_empty() {
        true => shown,
        false => [vec![ScalarType::Int64; 2], shown].concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(up_to: Frontier) -> SubscribeState {
        SubscribeState {
            id: 1,
            dataflow_id: 1,
            runtime: 0,
            up_to,
            inputs: Vec::new(),
            depends_on: Vec::new(),
            frontiers: BTreeMap::new(),
            pending: BTreeMap::new(),
            errors: BTreeMap::new(),
            ready: Vec::new(),
            shown: Vec::new(),
            frontier: 2,
            end: None,
            dropped: false,
        }
    }

    fn row(time: i64, diff: Diff, value: i64) -> Row {
        vec![Datum::Int64(time), Datum::Int64(diff), Datum::Int64(value)]
    }

    fn ok(
        value: i64,
        time: Timestamp,
        diff: Diff,
    ) -> (Result<Row, DataflowError>, Timestamp, Diff) {
        (Ok(vec![Datum::Int64(value)]), time, diff)
    }

    fn err(
        text: &str,
        time: Timestamp,
        diff: Diff,
    ) -> (Result<Row, DataflowError>, Timestamp, Diff) {
        (Err(DataflowError(text.into())), time, diff)
    }

    /// A time is complete only once every worker has passed it; its
    /// changes are consolidated across workers, sorted by time, then row.
    #[test]
    fn completes_what_every_worker_passed_consolidated() {
        let mut s = state(None);
        s.receive(0, vec![ok(5, 2, 1), ok(1, 3, 1), ok(7, 2, 1)], Some(4));
        s.complete(2);
        assert!(s.ready.is_empty(), "worker 1 has not reported");
        s.receive(1, vec![ok(5, 2, -1), ok(3, 2, 1)], Some(3));
        s.complete(2);
        assert_eq!(s.ready, vec![row(2, 1, 3), row(2, 1, 7)]);
        assert_eq!(
            (s.frontier, s.waiting(2).as_str()),
            (3, "frontier [3]: worker 0 at [4], worker 1 at [3]")
        );
        s.receive(1, Vec::new(), Some(4));
        s.complete(2);
        assert_eq!(s.ready.last(), Some(&row(3, 1, 1)));
        assert_eq!(s.waiting(2), "frontier [4]");
        assert_eq!(s.end, None);
    }

    /// UP TO is exclusive: changes at it are not emitted, and reaching it
    /// (or an input ending) ends the subscribe.
    #[test]
    fn up_to_ends_it_exactly_at_its_bound() {
        let mut s = state(Some(4));
        s.receive(0, vec![ok(1, 3, 1), ok(2, 4, 1)], None);
        s.complete(1);
        assert_eq!(s.ready, vec![row(3, 1, 1)]);
        assert_eq!(s.end, Some(Progress::Complete(Some(4))));
        let mut s = state(None);
        s.receive(0, vec![ok(1, 9, 1)], None);
        s.complete(1);
        assert_eq!(s.ready, vec![row(9, 1, 1)]);
        assert_eq!(s.end, Some(Progress::Complete(None)));
    }

    /// The first complete time with a positive net error ends it with the
    /// smallest such error, after the changes of earlier times; an error
    /// retracted at the time it appears never counts.
    #[test]
    fn a_positive_error_ends_it() {
        let mut s = state(None);
        s.receive(
            0,
            vec![
                err("x", 2, 1),
                err("x", 2, -1),
                ok(1, 2, 1),
                err("b", 3, 1),
                err("a", 3, 1),
                ok(2, 3, 1),
            ],
            Some(5),
        );
        s.complete(1);
        assert_eq!(s.ready, vec![row(2, 1, 1)]);
        assert_eq!(s.end, Some(Progress::Failed("a".into())));
    }
}
