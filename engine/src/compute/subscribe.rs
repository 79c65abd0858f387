//! Subscribes on a worker: the dataflow of a read that stays, the capture
//! of what it emits, and the replies that hand it to the coordinator.
//!
//! A subscribe's dataflow imports its inputs at its `as_of` and follows
//! them live (locally, or through shared imports that hold their points),
//! until its `up_to`. A sink at its end captures every update and the
//! output frontier into a buffer; after each step the worker sends what
//! is new, so the coordinator learns of changes without polling and a
//! worker with nothing new stays quiet.

use std::cell::RefCell;
use std::rc::Rc;

use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::operator::Operator;
use timely::worker::Worker;

use super::install::Purpose;
use super::{ComputeState, LiveDataflow};
use crate::arrangement::IndexTraces;
use crate::protocol::{DataflowDesc, Reply};
use crate::repr::Frontier;
use crate::repr::{DataflowError, Diff, Row, Timestamp};

/// A subscribe's dataflow on this worker.
pub struct Subscription {
    captured: Rc<RefCell<Captured>>,
    /// Keeps the dataflow (and the dataflows it imports from) alive.
    _live: Rc<LiveDataflow>,
    /// New handles on the traces it imports locally: held just below what
    /// it has read, as a shared import holds its point.
    holds: Vec<IndexTraces>,
    as_of: Timestamp,
    /// The frontier last sent to the coordinator (`None`: nothing sent yet).
    reported: Option<Frontier>,
}

/// What the sink has captured and not yet sent.
struct Captured {
    updates: Vec<(Result<Row, DataflowError>, Timestamp, Diff)>,
    frontier: Frontier,
}

impl Subscription {
    /// The handles by which this subscribe holds local traces.
    pub(super) fn holds_mut(&mut self) -> &mut [IndexTraces] {
        &mut self.holds
    }
}

impl ComputeState {
    /// Builds a subscribe's dataflow: it follows `desc`'s imports from its
    /// `as_of` until `up_to`, and a sink captures its output.
    pub(super) fn create_subscribe(
        &mut self,
        worker: &mut Worker,
        subscribe: u64,
        desc: DataflowDesc,
        up_to: Frontier,
    ) {
        let as_of = desc.as_of;
        let captured = Rc::new(RefCell::new(Captured {
            updates: Vec::new(),
            frontier: Some(0),
        }));
        let sink = Rc::clone(&captured);
        let purpose = Purpose::Subscribe { up_to };
        let ((), live, mut holds) = self.build(worker, &desc, purpose, move |rendered| {
            let (oks, errs) = rendered.rows();
            oks.map(Ok).concat(errs.map(Err)).inner.sink(
                Pipeline,
                "Subscribe",
                move |(input, frontier)| {
                    let mut captured = sink.borrow_mut();
                    input.for_each(|_, data| captured.updates.append(data));
                    captured.frontier = frontier.frontier().first().copied();
                },
            );
        });
        for traces in &mut holds {
            traces.allow_compaction(as_of);
        }
        self.subscribes.insert(
            subscribe,
            Subscription {
                captured,
                _live: live,
                holds,
                as_of,
                reported: None,
            },
        );
    }

    /// Drops a subscribe's dataflow, and with it every hold it has.
    pub(super) fn drop_subscribe(&mut self, worker: &mut Worker, subscribe: u64) {
        if self.subscribes.remove(&subscribe).is_some() {
            self.drop_unused_dataflows(worker);
        }
    }

    /// After a step: sends each subscribe's new updates and frontier, and
    /// moves its local holds up behind what it has read.
    pub(super) fn send_subscribes(&mut self) -> bool {
        let mut active = false;
        for (id, subscription) in self.subscribes.iter_mut() {
            let mut captured = subscription.captured.borrow_mut();
            let frontier = captured.frontier;
            if captured.updates.is_empty() && subscription.reported == Some(frontier) {
                continue;
            }
            let updates = std::mem::take(&mut captured.updates);
            drop(captured);
            match frontier {
                // Held one below what was read, never below `as_of`.
                Some(f) => {
                    let hold = f.saturating_sub(1).max(subscription.as_of);
                    for traces in &mut subscription.holds {
                        traces.allow_compaction(hold);
                    }
                }
                // Done: it needs nothing more of its inputs.
                None => subscription.holds.clear(),
            }
            subscription.reported = Some(frontier);
            self.replies.send(Reply::Subscribe {
                subscribe: *id,
                worker: self.worker,
                updates,
                frontier,
            });
            active = true;
        }
        active
    }
}
