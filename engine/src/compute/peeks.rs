//! Peeks on a worker: registering them against a local or shared index,
//! answering them once readable, and forgetting them.

use std::sync::Arc;

use timely::worker::Worker;

use super::peek::{self, IndexHandle};
use super::ComputeState;
use crate::protocol::{PeekRequest, PeekResponse, PeekTarget, Reply};
use crate::sharing::import::{Reader, SharedIndex};
use crate::sharing::Counters;

impl ComputeState {
    /// Registers a peek; it is answered by `process_peeks` once readable.
    pub(super) fn peek(&mut self, request: PeekRequest) {
        let handle = match request.target {
            PeekTarget::Transient => self
                .transients
                .get(&request.id)
                .map(|(t, _)| IndexHandle::Local(Box::new(t.clone()))),
            PeekTarget::Index(target) => match self.exports.get(&target) {
                Some(export) => Some(IndexHandle::Local(Box::new(export.traces.clone()))),
                None => self.peers.get(&target).map(|peer| {
                    let reader = Reader::new(Arc::clone(&peer.point), self.registry.reader_id());
                    IndexHandle::Shared(SharedIndex::new(reader, peer.since, request.time))
                }),
            },
        };
        match handle {
            Some(handle) => {
                let pending = peek::Pending::new(request, handle);
                self.peeks.insert(pending.request.id, pending);
            }
            None => {
                let response =
                    PeekResponse::Error(format!("peek target {} is not installed", request.target));
                self.replies.send(Reply::Peek {
                    peek: request.id,
                    worker: self.worker,
                    response,
                });
            }
        }
    }

    /// Forgets a peek and any transient dataflow behind it.
    pub(super) fn cancel_peek(&mut self, worker: &mut Worker, peek: u64) {
        self.peeks.remove(&peek);
        if self.transients.remove(&peek).is_some() {
            self.drop_unused_dataflows(worker);
        }
    }

    /// Answers every pending peek whose traces are readable at its time.
    pub(super) fn process_peeks(&mut self) -> bool {
        let mut answered = Vec::new();
        let mut board = self.board.lock().expect("board lock");
        for (id, pending) in self.peeks.iter_mut() {
            match pending.try_answer() {
                Some(response) => answered.push((*id, response)),
                None => board.note(*id, self.worker, pending.frontiers()),
            }
        }
        drop(board);
        let any = !answered.is_empty();
        for (id, response) in answered {
            let pending = self.peeks.remove(&id).expect("answered");
            let counters = &self.registry.counters;
            match (&pending.handle, pending.request.target) {
                // A transient's reads were counted per import.
                (_, PeekTarget::Transient) => {}
                (IndexHandle::Local(_), _) => Counters::bump(&counters.local_reads),
                (IndexHandle::Shared(_), _) => Counters::bump(&counters.shared_reads),
            }
            self.replies.send(Reply::Peek {
                peek: id,
                worker: self.worker,
                response,
            });
        }
        any
    }
}
