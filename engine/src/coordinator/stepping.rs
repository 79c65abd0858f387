//! Stepping the runtimes' workers, in the scheduler's order, until a full
//! round of them does nothing, and filing the replies they send.

use std::collections::BTreeSet;

use super::Engine;
use crate::protocol::Reply;
use crate::scheduler::Unit;

impl Engine {
    /// Steps runnable workers until a full round of them does nothing.
    pub(super) fn settle(&mut self) {
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
    pub(super) fn step_unit(&mut self, (runtime, worker): Unit) -> bool {
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
                Reply::Subscribe {
                    subscribe,
                    worker,
                    updates,
                    frontier,
                } => self.receive_subscribe(subscribe, worker, updates, frontier),
            }
        }
        active
    }
}

/// Steps without quiescence after which the engine gives up (a livelock).
const STEP_LIMIT: u64 = 1_000_000;
