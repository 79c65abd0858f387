//! A timely runtime whose workers never run free: the coordinator steps
//! each worker itself, one call at a time, so a single scheduler decides
//! the interleaving of every worker of every runtime.
//!
//! Every worker of the runtime is built on the coordinator's own thread
//! (timely's process allocators work the same whichever thread builds and
//! steps them), so a step is a function call rather than a hand-off to a
//! worker thread and back. Each worker owns a `State` (it holds `Rc`s and
//! trace handles). The coordinator sends commands, values of the logic's
//! own command type that the worker queues and hands to its logic at the
//! start of its next step, and learns whether the step did any work, which
//! is how quiescence is detected without a wall clock.

pub(crate) mod scheduler;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Instant;

use timely::communication::{Allocator, AllocatorBuilder};
use timely::worker::Worker;
use timely::WorkerConfig;

/// Per-worker logic the runtime calls around each step.
pub trait WorkerLogic: 'static {
    /// What the coordinator asks of a worker: plain data, so a command can
    /// be logged, compared and sent to every worker alike.
    type Command: 'static;
    type Reply: 'static;
    /// State every worker of the runtime shares with the coordinator.
    type Shared: Clone + 'static;
    /// Called once per worker, before any command.
    fn new(worker: &mut Worker, replies: ReplySender<Self::Reply>, shared: Self::Shared) -> Self;
    /// Carries out one command, before the step.
    fn handle(&mut self, worker: &mut Worker, command: Self::Command);
    /// Called after every step (answering peeks, publishing frontiers).
    /// Returns whether it did anything that counts as activity.
    fn after_step(&mut self, worker: &mut Worker) -> bool;
    /// Checks the worker's invariants, after every step that did something
    /// (an idle step changes nothing there is to check).
    fn audit(&mut self);
    /// Whether a change another runtime makes to the state they share could
    /// give this worker work: if not, the worker stays idle through it.
    fn waits_on_others(&self) -> bool;
}

/// A worker's way back to the coordinator: replies wait here until the
/// step that produced them returns.
pub struct ReplySender<R> {
    replies: Rc<RefCell<Vec<R>>>,
}

impl<R> ReplySender<R> {
    pub fn send(&self, reply: R) {
        self.replies.borrow_mut().push(reply);
    }
}

/// What one step of a worker did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// It ran a command, a dataflow or an answer: it may have more to do.
    pub active: bool,
    /// It scheduled a dataflow. Only a dataflow sends the worker's peers
    /// data or progress (a command or an answer reaches no peer), so a
    /// step that scheduled none gave them nothing to do.
    pub scheduled: bool,
}

/// One worker: timely's, the logic's state, and the commands queued for
/// its next step.
struct Slot<S: WorkerLogic> {
    /// Dropped before `worker` (it holds handles into the worker's dataflows).
    state: Option<S>,
    worker: Worker,
    queued: Vec<S::Command>,
}

/// A running timely instance with `workers` workers, stepped on the
/// coordinator's thread.
pub struct Runtime<S: WorkerLogic> {
    slots: Vec<RefCell<Slot<S>>>,
    replies: Rc<RefCell<Vec<S::Reply>>>,
    /// The message of a worker's panic: the runtime is unusable after it.
    panicked: RefCell<Option<String>>,
}

impl<S: WorkerLogic> Runtime<S> {
    pub fn new(workers: usize, shared: S::Shared) -> Self {
        let replies = Rc::new(RefCell::new(Vec::new()));
        let (builders, _others) = timely::CommunicationConfig::Process(workers)
            .try_build()
            .expect("timely allocators build");
        let slots = build_allocators(builders)
            .into_iter()
            .map(|allocator| {
                let mut worker =
                    Worker::new(WorkerConfig::default(), allocator, Some(Instant::now()));
                let sender = ReplySender {
                    replies: Rc::clone(&replies),
                };
                let state = S::new(&mut worker, sender, shared.clone());
                RefCell::new(Slot {
                    state: Some(state),
                    worker,
                    queued: Vec::new(),
                })
            })
            .collect();
        Runtime {
            slots,
            replies,
            panicked: RefCell::new(None),
        }
    }

    pub fn workers(&self) -> usize {
        self.slots.len()
    }

    /// Queues `command` on `worker`; it runs at that worker's next step.
    pub fn command(&self, worker: usize, command: S::Command) {
        self.slots[worker].borrow_mut().queued.push(command);
    }

    /// Queues `command` on every worker.
    pub fn broadcast(&self, command: S::Command)
    where
        S::Command: Clone,
    {
        for worker in 0..self.workers() {
            self.command(worker, command.clone());
        }
    }

    /// Whether `worker` could get work from a change another runtime makes
    /// (`WorkerLogic::waits_on_others`).
    pub fn waits_on_others(&self, worker: usize) -> bool {
        let slot = self.slots[worker].borrow();
        slot.state.as_ref().is_some_and(S::waits_on_others)
    }

    /// Steps `worker` once; replies it produced go to `on_reply`.
    /// A worker panic is re-raised here, and every later step of the
    /// runtime panics.
    pub fn step(&self, worker: usize, mut on_reply: impl FnMut(S::Reply)) -> Stepped {
        if let Some(message) = self.panicked.borrow().as_ref() {
            panic!("runtime unusable: a worker panicked: {message}");
        }
        let mut slot = self.slots[worker].borrow_mut();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| slot.step()));
        drop(slot);
        // Replies sent before a panic are still delivered.
        let replies = std::mem::take(&mut *self.replies.borrow_mut());
        replies.into_iter().for_each(&mut on_reply);
        match outcome {
            Ok(stepped) => stepped,
            Err(payload) => {
                let message = panic_message(&payload);
                *self.panicked.borrow_mut() = Some(message.clone());
                panic!("worker {worker} panicked: {message}")
            }
        }
    }
}

impl<S: WorkerLogic> Slot<S> {
    /// The queued commands, one timely step, then the logic's own step.
    fn step(&mut self) -> Stepped {
        let state = self.state.as_mut().expect("state lives until drop");
        let ran_commands = !self.queued.is_empty();
        for command in self.queued.drain(..) {
            state.handle(&mut self.worker, command);
        }
        self.worker.step();
        // An operator that activates itself, or a message to a peer, shows
        // up as an activation in a later step: a step without any, without
        // a command and without an answer did nothing (the coordinator's
        // settle decides from these when every worker is done).
        let scheduled = activated(&self.worker);
        let answered = state.after_step(&mut self.worker);
        let active = ran_commands || scheduled || answered;
        if active {
            state.audit();
        }
        Stepped { active, scheduled }
    }
}

impl<S: WorkerLogic> Drop for Runtime<S> {
    fn drop(&mut self) {
        // Each worker drops its state, then its dataflows: nothing waits on
        // a peer to finish a dataflow (after a panic, one never would).
        for slot in &self.slots {
            let mut slot = slot.borrow_mut();
            drop(slot.state.take());
            for dataflow in slot.worker.installed_dataflows() {
                slot.worker.drop_dataflow(dataflow);
            }
        }
    }
}

/// Builds every worker's allocator. A process allocator's build waits
/// for each peer's to start, so all but one are built at once on scoped
/// threads and handed back to this one, which builds the last itself (a
/// single worker's build waits for nobody: no thread at all).
fn build_allocators(mut builders: Vec<AllocatorBuilder>) -> Vec<Allocator> {
    /// A freshly built allocator on its way from the thread that built it.
    struct Built(Allocator);
    // SAFETY: a process allocator's `Rc`s are created by its own build and
    // never cloned outside it; the building thread ends right after handing
    // it over, so no other thread keeps a reference to them. (Its peers'
    // buzzers unpark the building threads, which have ended: harmless,
    // since workers are stepped by call here and never park.)
    unsafe impl Send for Built {}
    let build = |builder| match builder {
        AllocatorBuilder::Process(process) => Allocator::Process(process.build()),
        _ => unreachable!("a process configuration builds process allocators"),
    };
    let last = builders.pop().expect("at least one worker");
    std::thread::scope(|scope| {
        let handles: Vec<_> = builders
            .into_iter()
            .map(|builder| scope.spawn(move || Built(build(builder))))
            .collect();
        let last = build(last);
        let mut built: Vec<Allocator> = handles
            .into_iter()
            .map(|h| h.join().expect("allocator builds").0)
            .collect();
        built.push(last);
        built
    })
}

/// Whether the step just taken had a dataflow to schedule, or left one
/// activated for the next. Timely's `Activations` keep the paths a step
/// scheduled (and those activated since) until the next step's advance:
/// none means nothing ran. (Counting `Schedule` events of timely's log
/// told the same, for a clock read per logged event and a log flush per
/// step: a fifth of what a tick cost.)
fn activated(worker: &Worker) -> bool {
    let any = Cell::new(false);
    worker.activations().borrow().map_active(|_| any.set(true));
    any.get()
}

/// The text of a panic payload.
pub fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use differential_dataflow::input::{Input, InputSession};
    use std::sync::mpsc::channel;

    /// A worker holding one input that counts, per worker, what reached it
    /// after an exchange, so a test can see messages cross workers.
    struct Counting {
        input: Option<InputSession<u64, u64, i64>>,
        seen: Rc<RefCell<u64>>,
        replies: ReplySender<(usize, u64)>,
        index: usize,
    }

    /// What the tests ask of a worker.
    #[derive(Clone)]
    enum Do {
        /// Builds a dataflow that exchanges and counts what arrives.
        Build,
        /// As `Build`, but the worker of index 0 panics building its half.
        BuildPanickingOnWorker0,
        /// Introduces the values 0..100 at time 0.
        Insert,
        /// Closes time 0.
        Close,
        /// Replies with how many values reached this worker.
        Report,
        Panic,
    }

    impl Counting {
        /// Builds the counting dataflow; `panic_on_0`: worker 0 panics
        /// half-way, as an assertion in a render would.
        fn build(&mut self, worker: &mut Worker, panic_on_0: bool) {
            let seen = Rc::clone(&self.seen);
            let index = worker.index();
            let input = worker.dataflow::<u64, _, _>(|scope| {
                assert!(!panic_on_0 || index != 0, "boom");
                let (input, data) = scope.new_collection::<u64, i64>();
                data.consolidate().inspect(move |_| *seen.borrow_mut() += 1);
                input
            });
            self.input = Some(input);
        }
    }

    impl WorkerLogic for Counting {
        type Command = Do;
        type Reply = (usize, u64);
        type Shared = ();
        fn new(worker: &mut Worker, replies: ReplySender<Self::Reply>, _: ()) -> Self {
            Counting {
                input: None,
                seen: Rc::new(RefCell::new(0)),
                replies,
                index: worker.index(),
            }
        }
        fn handle(&mut self, worker: &mut Worker, command: Do) {
            match command {
                Do::Build => self.build(worker, false),
                Do::BuildPanickingOnWorker0 => self.build(worker, true),
                Do::Insert => {
                    let input = self.input.as_mut().unwrap();
                    for v in 0..100 {
                        input.update(v, 1);
                    }
                }
                Do::Close => {
                    let input = self.input.as_mut().unwrap();
                    input.advance_to(1);
                    input.flush();
                }
                Do::Report => self.replies.send((self.index, *self.seen.borrow())),
                Do::Panic => panic!("boom"),
            }
        }
        fn after_step(&mut self, _worker: &mut Worker) -> bool {
            false
        }
        /// A count has no invariant beyond what the tests assert.
        fn audit(&mut self) {}
        /// These workers share nothing with another runtime.
        fn waits_on_others(&self) -> bool {
            false
        }
    }

    fn quiesce(runtime: &Runtime<Counting>) -> usize {
        let mut idle = 0;
        let mut steps = 0;
        let mut worker = 0;
        while idle < runtime.workers() {
            if runtime.step(worker, |_| {}).active {
                idle = 0;
            } else {
                idle += 1;
            }
            worker = (worker + 1) % runtime.workers();
            steps += 1;
        }
        steps
    }

    /// Two workers with the counting dataflow built, and the values and
    /// the close of time 0 queued, not yet stepped.
    fn two_workers_loaded() -> Runtime<Counting> {
        let runtime = Runtime::<Counting>::new(2, ());
        runtime.broadcast(Do::Build);
        quiesce(&runtime);
        // Worker 0 introduces every value; the exchange by value spreads them.
        runtime.command(0, Do::Insert);
        // Every worker closes time 0, or nothing downstream completes it.
        runtime.broadcast(Do::Close);
        runtime
    }

    #[test]
    fn messages_cross_workers_only_when_stepped_and_quiescence_is_found() {
        let runtime = two_workers_loaded();
        let steps = quiesce(&runtime);
        assert!(steps > 2, "the data needed steps to flow");
        runtime.broadcast(Do::Report);
        let mut seen = Vec::new();
        for w in 0..2 {
            runtime.step(w, |r| seen.push(r));
        }
        seen.sort();
        assert_eq!(seen.iter().map(|(_, n)| n).sum::<u64>(), 100);
        // A quiescent runtime stays quiescent.
        assert!(!runtime.step(0, |_| {}).active);
        assert!(!runtime.step(1, |_| {}).active);
    }

    /// The steps that carry data and a closed time on through a dataflow
    /// run no command, yet are active until the count is complete: a step
    /// told idle too early would end a settle with work in flight.
    #[test]
    fn steps_with_work_in_flight_are_active_until_it_lands() {
        let runtime = Runtime::<Counting>::new(1, ());
        runtime.broadcast(Do::Build);
        quiesce(&runtime);
        runtime.command(0, Do::Insert);
        runtime.command(0, Do::Close);
        assert!(runtime.step(0, |_| {}).active, "the commands ran");
        let mut active = 0;
        while runtime.step(0, |_| {}).active {
            active += 1;
            assert!(active < 100, "no quiescence");
        }
        assert!(active > 0, "the data moved on in later steps");
        runtime.command(0, Do::Report);
        let mut seen = Vec::new();
        let report = runtime.step(0, |r| seen.push(r));
        assert_eq!(seen, vec![(0, 100)]);
        // A command that touches no dataflow is work for the worker, but
        // schedules nothing that could reach a peer.
        let expected = Stepped {
            active: true,
            scheduled: false,
        };
        assert_eq!(report, expected);
    }

    /// Every step that moves data or progress on reports it scheduled a
    /// dataflow: a peer told otherwise would miss what it was sent.
    #[test]
    fn steps_that_move_data_to_peers_say_they_scheduled() {
        let runtime = two_workers_loaded();
        // Step worker 0 alone until it is done: it has sent worker 1 its
        // share of the values and its progress, and said so.
        let mut scheduled = 0;
        loop {
            let stepped = runtime.step(0, |_| {});
            if !stepped.active {
                break;
            }
            scheduled += usize::from(stepped.scheduled);
        }
        assert!(scheduled > 0);
        assert!(runtime.step(1, |_| {}).scheduled, "worker 1 had messages");
    }

    /// A panic on one worker of several, with dataflows that exchange
    /// between them: the runtime still shuts down instead of waiting on
    /// the dead worker's share of the work.
    #[test]
    fn a_runtime_with_a_panicked_worker_shuts_down() {
        let (done, finished) = channel();
        std::thread::spawn(move || {
            let runtime = Runtime::<Counting>::new(2, ());
            runtime.broadcast(Do::Build);
            quiesce(&runtime);
            // Worker 1 builds a dataflow that exchanges with worker 0, which
            // panics building its half: worker 1's dataflow can never complete.
            runtime.broadcast(Do::BuildPanickingOnWorker0);
            runtime.step(1, |_| {});
            let caught =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runtime.step(0, |_| {})));
            assert!(caught.is_err());
            drop(runtime);
            let _ = done.send(());
        });
        finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the runtime shut down");
    }

    #[test]
    fn a_worker_panic_reaches_the_coordinator() {
        let runtime = Runtime::<Counting>::new(1, ());
        runtime.command(0, Do::Panic);
        let caught =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runtime.step(0, |_| {})));
        let message = panic_message(&caught.unwrap_err());
        assert!(message.contains("boom"), "{message}");
    }
}
