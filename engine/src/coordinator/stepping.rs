//! Stepping the runtimes' workers, in the scheduler's order, until none of
//! them may have work, and filing the replies they send.

use std::collections::BTreeSet;

use super::Engine;
use crate::protocol::Reply;
use crate::runtime::scheduler::Unit;
use crate::runtime::Stepped;

impl Engine {
    /// Steps runnable workers until each has done nothing since anything
    /// could have given it work. A worker that stepped idly stays idle until
    /// a worker of its own runtime runs a dataflow (a message or progress may
    /// be on its way; a command or an answer sends a peer nothing), or a step
    /// changes the sharing registry (the only way one runtime reaches the
    /// other) while it has something that reads the registry; only workers
    /// not known idle are picked, since stepping an idle one would do nothing.
    pub(super) fn settle(&mut self) {
        let mut idle: BTreeSet<Unit> = BTreeSet::new();
        let mut steps = 0u64;
        loop {
            let Some(unit) = self.scheduler.next(&idle) else {
                if cfg!(debug_assertions) {
                    self.check_settled();
                }
                return;
            };
            let changes = self.registry.changes();
            let stepped = self.step_unit(unit);
            if stepped.active {
                let reached = self.registry.changes() != changes;
                let runtimes = &self.runtimes;
                idle.retain(|&(runtime, worker)| {
                    let messaged = runtime == unit.0 && stepped.scheduled;
                    let woken = reached && runtimes[runtime].runtime.waits_on_others(worker);
                    !(messaged || woken)
                });
            } else {
                idle.insert(unit);
            }
            steps += 1;
            assert!(steps < STEP_LIMIT, "no quiescence after {STEP_LIMIT} steps");
        }
    }

    /// The settle's claim, checked in debug builds (the suite, the explorer,
    /// the tests): one more step of every runnable worker does nothing. A
    /// rule above that lets a worker that could have work count as idle
    /// fails here, in whichever scenario reaches it.
    fn check_settled(&mut self) {
        for unit in self.scheduler.runnable() {
            assert!(
                !self.step_unit(unit).active,
                "worker {unit:?} still had work once the workers had settled"
            );
        }
    }

    /// Steps one worker and files its replies; returns what the step did.
    pub(super) fn step_unit(&mut self, (runtime, worker): Unit) -> Stepped {
        let mut replies = Vec::new();
        let stepped = self.runtimes[runtime]
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
        stepped
    }
}

/// Steps without quiescence after which the engine gives up (a livelock).
const STEP_LIMIT: u64 = 1_000_000;
