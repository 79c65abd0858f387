//! Reads: a SELECT becomes a fast-path peek on an index or a slow-path
//! peek on a transient dataflow; a peek is issued to the serving runtime's
//! workers, collected, finished (ORDER BY, LIMIT) or cancelled.

use std::collections::BTreeMap;

use super::builtin::Relation;
use super::ddl::plan_columns;
use super::Engine;
use crate::api::Outcome;
use crate::compute::peek;
use crate::plan::{Finishing, RelationPlan, ScalarExpr, SimpleSelect};
use crate::protocol::{Command, Import, PeekRequest, PeekResponse, PeekTarget};
use crate::repr::{GlobalId, Row, Timestamp};

impl Engine {
    pub(super) fn select(
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
        let constant = holds.is_empty();
        self.send_peek(runtime, request, holds, finishing);
        let outcome = self.answer(peek_id);
        if matches!(outcome, Outcome::Rows(_)) {
            if introspection {
                self.logging_reads += 1;
            } else if constant {
                self.constant_reads += 1;
            }
        }
        outcome
    }

    /// Waits for `peek` and returns its outcome; a pending read is cancelled.
    pub(super) fn answer(&mut self, peek: u64) -> Outcome {
        self.settle();
        let outcome = self.take_peek(peek);
        if matches!(outcome, Outcome::Pending(_)) {
            self.cancel_peek(peek);
        }
        outcome
    }

    pub(super) fn issue_index_peek(
        &mut self,
        index: &str,
        as_of: Option<Timestamp>,
    ) -> Result<u64, String> {
        let (id, _) = crate::plan::Resolver::resolve(&self.catalog, index)
            .filter(|(_, kind)| *kind == crate::plan::ObjectKind::Index)
            .ok_or_else(|| format!("unknown index '{index}'"))?;
        let time = as_of.unwrap_or(self.now);
        Ok(self.issue_peek_on(id, time, Vec::new(), None, Finishing::default()))
    }

    pub(super) fn issue_peek_on(
        &mut self,
        index: GlobalId,
        time: Timestamp,
        predicates: Vec<ScalarExpr>,
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

    pub(super) fn send_peek(
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
    pub(super) fn take_peek(&mut self, peek: u64) -> Outcome {
        let state = &self.peeks[&peek];
        if state.responses.len() < self.config.workers {
            return Outcome::Pending(self.diagnose(peek));
        }
        let state = self.peeks.remove(&peek).expect("present");
        self.release_peek(peek, &state);
        match peek::combine(state.responses.into_values().collect()) {
            Err(e) => Outcome::Error(e),
            Ok(rows) => Outcome::Rows(state.finishing.apply(rows)),
        }
    }

    pub(super) fn cancel_peek(&mut self, peek: u64) {
        if let Some(state) = self.peeks.remove(&peek) {
            self.release_peek(peek, &state);
        }
    }

    /// Tells the workers to forget the peek (dropping any transient dataflow).
    /// An index dropped under this peek, and read by no other, goes now.
    pub(super) fn release_peek(&mut self, peek: u64, state: &PeekState) {
        let handle = &self.runtimes[state.runtime];
        handle.board.lock().expect("board").forget(peek);
        handle.runtime.broadcast(Command::CancelPeek { peek });
        if let PeekTarget::Index(id) = state.target {
            let still_read = self.peeks.values().any(|p| p.target == state.target);
            if !still_read && self.dropped_under_peek.remove(&id) {
                self.drop_index_dataflow(id);
            }
        }
    }
}

/// A peek the coordinator is waiting on.
pub(super) struct PeekState {
    pub(super) runtime: usize,
    pub(super) target: PeekTarget,
    pub(super) time: Timestamp,
    pub(super) responses: BTreeMap<usize, PeekResponse>,
    /// Collections held at `time` while the peek is outstanding.
    pub(super) holds: Vec<GlobalId>,
    /// Applied to the rows once every worker answered.
    pub(super) finishing: Finishing,
}
