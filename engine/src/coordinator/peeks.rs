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
                let (relation, predicates) = (simple.relation, simple.predicates);
                let peek = self.issue_peek_on(index, relation, time, predicates, key, finishing);
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
        let depends_on = named_relations(&plan);
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
        self.send_peek(runtime, request, holds, depends_on, finishing);
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
        // It stands for `SELECT * FROM` the indexed relation: it names that.
        let on = self
            .catalog
            .get(id)
            .and_then(|e| e.index())
            .expect("an index")
            .on;
        let finishing = Finishing {
            shown: crate::repr::chars::shown(&plan_columns(&self.catalog, on)),
            ..Finishing::default()
        };
        Ok(self.issue_peek_on(id, on, time, Vec::new(), None, finishing))
    }

    /// A fast-path peek on `index`, for a read whose SQL names `relation`.
    pub(super) fn issue_peek_on(
        &mut self,
        index: GlobalId,
        relation: GlobalId,
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
        self.send_peek(runtime, request, vec![index], vec![relation], finishing);
        id
    }

    pub(super) fn send_peek(
        &mut self,
        runtime: usize,
        request: PeekRequest,
        holds: Vec<GlobalId>,
        depends_on: Vec<GlobalId>,
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
                depends_on,
                finishing,
            },
        );
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::Peek(request));
    }

    /// The peek's outcome if every worker answered, else its diagnosis;
    /// a peek cancelled because a relation it reads was dropped, its error.
    pub(super) fn take_peek(&mut self, peek: u64) -> Outcome {
        if let Some(error) = self.cancelled_peeks.remove(&peek) {
            return Outcome::Error(error);
        }
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

    /// Cancels every pending peek whose SQL names `relation` (dropped),
    /// as the real system does: its await reads the error. A peek every
    /// worker had answered was answered before the drop and keeps its rows.
    pub(super) fn cancel_peeks_reading(&mut self, relation: GlobalId, name: &str) {
        let workers = self.config.workers;
        let pending: Vec<u64> = self
            .peeks
            .iter()
            .filter(|(_, p)| p.responses.len() < workers && p.depends_on.contains(&relation))
            .map(|(peek, _)| *peek)
            .collect();
        for peek in pending {
            self.cancel_peek(peek);
            let error = format!("query could not complete because {name} was dropped");
            self.cancelled_peeks.insert(peek, error);
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
    /// The relations its SQL names: dropping one cancels it while pending.
    pub(super) depends_on: Vec<GlobalId>,
    /// Applied to the rows once every worker answered.
    pub(super) finishing: Finishing,
}

/// The catalog relations `plan` names (before views are inlined and reads
/// go to indexes): what the real system's reads depend on, so what ends
/// them when dropped.
pub(super) fn named_relations(plan: &RelationPlan) -> Vec<GlobalId> {
    let named = std::cell::RefCell::new(std::collections::BTreeSet::new());
    plan.reads_any(&|id| {
        named.borrow_mut().insert(id);
        false
    });
    named.into_inner().into_iter().collect()
}

#[cfg(test)]
mod tests {
    use crate::api::{Config, JoinPlan, Outcome};
    use crate::coordinator::Engine;
    use crate::repr::Datum;

    /// A relation dropped under two named peeks: the one every worker had
    /// answered keeps its rows (it was answered before the drop), the
    /// pending one reads the real system's error, in either configuration.
    #[test]
    fn a_drop_cancels_only_the_peeks_still_pending() {
        for sharing in [false, true] {
            let mut engine = Engine::new(Config {
                sharing,
                workers: 2,
                seed: None,
                joins: JoinPlan::Linear,
            });
            for sql in [
                "CREATE TABLE t (k int)",
                "CREATE INDEX i ON t (k)",
                "INSERT INTO t VALUES (1)",
            ] {
                assert_eq!(engine.statement(sql), Outcome::Ok, "{sql}");
            }
            assert_eq!(engine.issue_peek("i", Some(1), "answered"), Outcome::Issued);
            assert_eq!(engine.issue_peek("i", Some(2), "waits"), Outcome::Issued);
            assert_eq!(engine.statement("DROP TABLE t"), Outcome::Ok);
            let rows = Outcome::Rows(vec![vec![Datum::Int32(1)]]);
            assert_eq!(engine.await_peek("answered"), rows, "sharing={sharing}");
            assert_eq!(
                engine.await_peek("waits"),
                Outcome::Error(
                    "query could not complete because relation \"materialize.public.t\" was dropped"
                        .into()
                ),
                "sharing={sharing}"
            );
        }
    }
}
