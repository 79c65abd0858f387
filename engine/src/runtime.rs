//! A timely runtime whose workers never run free: each worker thread waits
//! for the coordinator to tell it to take one step, so a single scheduler
//! decides the interleaving of every worker of every runtime.
//!
//! Each worker owns a `State` built on its own thread (it holds `Rc`s and
//! trace handles that never cross threads). The coordinator sends commands,
//! values of the logic's own command type that the worker queues and hands
//! to its logic at the start of its next step, and learns whether the step did any work, which is how quiescence
//! is detected without a wall clock.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use timely::logging::{StartStop, TimelyEvent, TimelyEventBuilder};
use timely::worker::Worker;
use timely::WorkerConfig;

enum ToWorker<C> {
    Command(C),
    Step,
}

/// What a worker says back.
pub enum FromWorker<R> {
    /// A reply produced by a command or by the worker's own step logic.
    Reply(R),
    /// The step finished; `active` if anything ran or remains scheduled.
    Stepped { active: bool },
    /// The worker panicked; its runtime is unusable.
    Panicked(String),
}

/// Per-worker logic the runtime calls around each step.
pub trait WorkerLogic: 'static {
    /// What the coordinator asks of a worker: plain data, so a command can
    /// be logged, compared and sent to every worker alike.
    type Command: Send + 'static;
    type Reply: Send + 'static;
    /// State every worker of the runtime shares with the coordinator.
    type Shared: Clone + Send + Sync + 'static;
    /// Called on the worker thread once, before any command.
    fn new(worker: &mut Worker, replies: ReplySender<Self::Reply>, shared: Self::Shared) -> Self;
    /// Carries out one command, on the worker thread, before the step.
    fn handle(&mut self, worker: &mut Worker, command: Self::Command);
    /// Called after every step (answering peeks, publishing frontiers).
    /// Returns whether it did anything that counts as activity.
    fn after_step(&mut self, worker: &mut Worker) -> bool;
}

/// A worker's way back to the coordinator.
pub struct ReplySender<R> {
    sender: Sender<FromWorker<R>>,
}

impl<R> ReplySender<R> {
    pub fn send(&self, reply: R) {
        // The coordinator outlives every worker; a send can only fail while
        // the engine is being torn down, when nothing listens any more.
        let _ = self.sender.send(FromWorker::Reply(reply));
    }
}

/// A running timely instance with `workers` stepped threads.
pub struct Runtime<S: WorkerLogic> {
    senders: Vec<Sender<ToWorker<S::Command>>>,
    replies: Receiver<FromWorker<S::Reply>>,
    guards: Option<timely::communication::WorkerGuards<()>>,
}

impl<S: WorkerLogic> Runtime<S> {
    pub fn new(workers: usize, shared: S::Shared) -> Self {
        let (reply_tx, replies) = channel();
        let mut senders = Vec::with_capacity(workers);
        let mut inboxes = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (tx, rx) = channel::<ToWorker<S::Command>>();
            senders.push(tx);
            inboxes.push(Mutex::new(Some((rx, reply_tx.clone()))));
        }
        drop(reply_tx);
        let inboxes = Arc::new(inboxes);
        let config = timely::Config {
            communication: timely::CommunicationConfig::Process(workers),
            worker: WorkerConfig::default(),
        };
        let guards = timely::execute(config, move |worker| {
            let (inbox, reply_tx) = inboxes[worker.index()]
                .lock()
                .expect("inbox lock")
                .take()
                .expect("each worker takes its inbox once");
            run_worker::<S>(worker, inbox, reply_tx, shared.clone());
        })
        .expect("timely runtime starts");
        Runtime {
            senders,
            replies,
            guards: Some(guards),
        }
    }

    pub fn workers(&self) -> usize {
        self.senders.len()
    }

    /// Queues `command` on `worker`; it runs at that worker's next step.
    pub fn command(&self, worker: usize, command: S::Command) {
        self.senders[worker]
            .send(ToWorker::Command(command))
            .expect("worker alive");
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

    /// Steps `worker` once; replies it produced go to `on_reply`.
    /// Returns whether the step was active. A worker panic is re-raised here.
    pub fn step(&self, worker: usize, mut on_reply: impl FnMut(S::Reply)) -> bool {
        self.senders[worker]
            .send(ToWorker::Step)
            .expect("worker alive");
        loop {
            match self.replies.recv().expect("worker alive") {
                FromWorker::Reply(reply) => on_reply(reply),
                FromWorker::Stepped { active } => return active,
                FromWorker::Panicked(message) => panic!("worker {worker} panicked: {message}"),
            }
        }
    }
}

impl<S: WorkerLogic> Drop for Runtime<S> {
    fn drop(&mut self) {
        // Closing the inboxes ends every worker's loop; then join them.
        self.senders.clear();
        if let Some(guards) = self.guards.take() {
            for result in guards.join() {
                // A panic was already reported through `Panicked`.
                let _ = result;
            }
        }
    }
}

fn run_worker<S: WorkerLogic>(
    worker: &mut Worker,
    inbox: Receiver<ToWorker<S::Command>>,
    replies: Sender<FromWorker<S::Reply>>,
    shared: S::Shared,
) {
    let scheduled = Rc::new(Cell::new(0u64));
    {
        let scheduled = Rc::clone(&scheduled);
        worker
            .log_register()
            .expect("logging registry")
            .insert::<TimelyEventBuilder, _>("timely", move |_time, events| {
                if let Some(events) = events {
                    for (_, event) in events.iter() {
                        if let TimelyEvent::Schedule(schedule) = event {
                            if schedule.start_stop == StartStop::Start {
                                scheduled.set(scheduled.get() + 1);
                            }
                        }
                    }
                }
            });
    }
    let mut state = S::new(
        worker,
        ReplySender {
            sender: replies.clone(),
        },
        shared,
    );
    let mut queued: Vec<S::Command> = Vec::new();
    while let Ok(message) = inbox.recv() {
        match message {
            ToWorker::Command(command) => queued.push(command),
            ToWorker::Step => {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let ran_commands = !queued.is_empty();
                    for command in queued.drain(..) {
                        state.handle(worker, command);
                    }
                    let before = scheduled.get();
                    worker.step();
                    if let Some(mut registry) = worker.log_register() {
                        registry.flush();
                    }
                    // An operator that activates itself, or a message to a
                    // peer, shows up as scheduling in a later step, so a
                    // round of steps without any is quiescence.
                    let stepped = scheduled.get() != before;
                    let answered = state.after_step(worker);
                    ran_commands || stepped || answered
                }));
                match outcome {
                    Ok(active) => {
                        let _ = replies.send(FromWorker::Stepped { active });
                    }
                    Err(payload) => {
                        let _ = replies.send(FromWorker::Panicked(panic_message(&payload)));
                        break;
                    }
                }
            }
        }
    }
    // Once this returns, timely steps the worker until its dataflows are
    // complete, which needs every peer; after a peer's panic that never
    // happens. Dropping them lets every worker thread end on its own.
    drop(state);
    for dataflow in worker.installed_dataflows() {
        worker.drop_dataflow(dataflow);
    }
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
    use std::cell::RefCell;

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
    }

    fn quiesce(runtime: &Runtime<Counting>) -> usize {
        let mut idle = 0;
        let mut steps = 0;
        let mut worker = 0;
        while idle < runtime.workers() {
            if runtime.step(worker, |_| {}) {
                idle = 0;
            } else {
                idle += 1;
            }
            worker = (worker + 1) % runtime.workers();
            steps += 1;
        }
        steps
    }

    #[test]
    fn messages_cross_workers_only_when_stepped_and_quiescence_is_found() {
        let runtime = Runtime::<Counting>::new(2, ());
        runtime.broadcast(Do::Build);
        quiesce(&runtime);
        // Worker 0 introduces every value; the exchange by value spreads them.
        runtime.command(0, Do::Insert);
        // Every worker closes time 0, or nothing downstream completes it.
        runtime.broadcast(Do::Close);
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
        assert!(!runtime.step(0, |_| {}));
        assert!(!runtime.step(1, |_| {}));
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
