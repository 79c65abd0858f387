//! The floor beside the engine's ticks: the dataflows a tick moves in the
//! engine's solo runs, on bare differential dataflow, stepped on one thread
//! by the engine's own `Runtime` (so its workers are stepped as the
//! engine's are, with no coordinator, read policy, sharing or error
//! collections around them).
//!
//! A table is a `(k, v)` input arranged by the whole row, and its index a
//! second dataflow that imports that arrangement and arranges it by `k`, as
//! the engine's table and `t_k` dataflows are. A tick advances every
//! worker's input by one time and lets both traces compact to the last
//! complete time (as the engine's read policy does), then steps the workers
//! round-robin until a whole round did nothing.

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use differential_dataflow::input::{Input, InputSession};
use differential_dataflow::operators::arrange::TraceAgent;
use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::implementations::{KeySpine, ValSpine};
use differential_dataflow::trace::{Cursor, TraceReader};
use engine::runtime::{ReplySender, Runtime, WorkerLogic};
use timely::dataflow::operators::probe::Handle;
use timely::dataflow::operators::Probe;
use timely::progress::Antichain;
use timely::worker::Worker;

type Row = (i32, i32);
type Table = TraceAgent<KeySpine<Row, u64, i64>>;
type Index = TraceAgent<ValSpine<i32, Row, u64, i64>>;

/// One worker's input and the handles of the two traces it maintains.
pub struct Ticking {
    replies: ReplySender<i64>,
    input: InputSession<u64, Row, i64>,
    table: Table,
    index: Index,
}

/// What the bench asks of a bare worker.
#[derive(Clone, Copy)]
pub enum Command {
    /// Advance every input to this time; the traces compact to the one before.
    Advance(u64),
    /// Reply with the rows of the index's trace, each as often as it counts.
    Count,
}

impl WorkerLogic for Ticking {
    type Command = Command;
    type Reply = i64;
    type Shared = ();

    fn new(worker: &mut Worker, replies: ReplySender<i64>, _: ()) -> Self {
        let (input, table, index, _) = dataflows(worker);
        Ticking {
            replies,
            input,
            table,
            index,
        }
    }

    fn handle(&mut self, _: &mut Worker, command: Command) {
        match command {
            Command::Advance(time) => {
                advance(&mut self.input, &mut self.table, &mut self.index, time)
            }
            Command::Count => self.replies.send(count(&mut self.index)),
        }
    }

    fn after_step(&mut self, _: &mut Worker) -> bool {
        false
    }

    /// The bare dataflows keep no invariant of their own to check.
    fn audit(&mut self) {}

    /// Nothing is shared with another runtime.
    fn waits_on_others(&self) -> bool {
        false
    }
}

/// Builds the table and index dataflows on `worker`, the rows in the
/// input (on worker 0) at time 0; returns the input, the two traces and a
/// probe of the index's arrangement.
fn dataflows(worker: &mut Worker) -> (InputSession<u64, Row, i64>, Table, Index, Handle<u64>) {
    let (mut input, mut table) = worker.dataflow::<u64, _, _>(|scope| {
        let (input, rows) = scope.new_collection::<Row, i64>();
        (input, rows.arrange_by_self().trace)
    });
    let (index, probe) = worker.dataflow::<u64, _, _>(|scope| {
        let imported = table.import(scope);
        let by_key = imported.as_collection(|row: &Row, _| (row.0, *row));
        let arranged = by_key.arrange_by_key();
        let (probe, _) = arranged.stream.clone().probe();
        (arranged.trace, probe)
    });
    // The engine's bench inserts three rows before it ticks.
    if worker.index() == 0 {
        for k in 1..=3 {
            input.update((k, 10 * k), 1);
        }
    }
    (input, table, index, probe)
}

/// Advances the input to `time` and lets both traces compact to the time
/// before it.
fn advance(
    input: &mut InputSession<u64, Row, i64>,
    table: &mut Table,
    index: &mut Index,
    time: u64,
) {
    input.advance_to(time);
    input.flush();
    let since = Antichain::from_elem(time - 1);
    table.set_logical_compaction(since.borrow());
    table.set_physical_compaction(since.borrow());
    index.set_logical_compaction(since.borrow());
    index.set_physical_compaction(since.borrow());
}

/// The rows in this worker's part of the index, each as often as it counts.
fn count(index: &mut Index) -> i64 {
    let batches = index.batches_through(Antichain::new().borrow());
    let (mut cursor, storage) = cursor_list(batches.expect("a trace hands out its batches"));
    let mut rows = 0;
    while cursor.key_valid(&storage) {
        while cursor.val_valid(&storage) {
            cursor.map_times(&storage, |_, diff| rows += *diff);
            cursor.step_val(&storage);
        }
        cursor.step_key(&storage);
    }
    rows
}

/// The same ticks the way differential dataflow runs itself: a thread per
/// worker, each advancing its own input and stepping (parking when it
/// waits on a peer) until the index has caught up. Returns worker 0's time
/// for each of `ticks` ticks, and the rows the index holds at the end.
pub fn threaded(workers: usize, ticks: u64) -> (Vec<Duration>, i64) {
    let rows = Arc::new(AtomicI64::new(0));
    let found = Arc::clone(&rows);
    let guards = timely::execute(timely::Config::process(workers), move |worker| {
        let (mut input, mut table, mut index, probe) = dataflows(worker);
        let mut times = Vec::new();
        for time in 1..=ticks + 1 {
            let start = Instant::now();
            advance(&mut input, &mut table, &mut index, time);
            worker.step_or_park_while(None, || probe.less_than(&time));
            times.push(start.elapsed());
        }
        found.fetch_add(count(&mut index), Relaxed);
        // The first advance loaded the rows; it is no tick.
        times.split_off(1)
    })
    .expect("timely runs");
    let mut times = guards
        .join()
        .into_iter()
        .map(|times| times.expect("a worker finishes"));
    (times.next().expect("worker 0"), rows.load(Relaxed))
}

/// A bare runtime of `workers` workers, its rows loaded at time 1.
pub struct Bare {
    runtime: Runtime<Ticking>,
    time: u64,
}

impl Bare {
    pub fn new(workers: usize) -> Bare {
        let mut bare = Bare {
            runtime: Runtime::new(workers, ()),
            time: 0,
        };
        bare.tick();
        bare
    }

    /// Advances the time by one and steps until the workers are done.
    pub fn tick(&mut self) {
        self.time += 1;
        self.runtime.broadcast(Command::Advance(self.time));
        self.settle();
    }

    fn settle(&self) {
        loop {
            let mut active = false;
            for worker in 0..self.runtime.workers() {
                active |= self.runtime.step(worker, |_| {}).active;
            }
            if !active {
                return;
            }
        }
    }

    /// The rows the index holds at its compaction frontier, over every
    /// worker: a bare run that lost its rows cannot post a good figure.
    pub fn rows(&self) -> i64 {
        self.runtime.broadcast(Command::Count);
        let mut rows = 0;
        for worker in 0..self.runtime.workers() {
            self.runtime.step(worker, |count| rows += count);
        }
        rows
    }
}
