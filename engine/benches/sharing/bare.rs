//! The limit beside the engine: the benchmark's workload on bare
//! differential dataflow, with no SQL, no rows of datums and no
//! coordinator. `(k, v)` pairs of `i32` are arranged by `k` in one chunk
//! per INSERT of the engine's workload, the trace allowed to compact to
//! the last complete time after each (the engine's read policy does so
//! after every write, and its spines merge the batches in as they come;
//! a trace never compacted keeps every batch apart, unmerged, and does
//! less work than any engine could), point lookups go through a trace
//! cursor, and each aggregate read is a dataflow importing the trace at
//! its compaction frontier (the last complete time, as the engine's read
//! policy sets it) and reducing it, as the engine's slow path does. A
//! whole-index read walks each worker's trace through a cursor and sorts
//! what the workers found into key order, as the engine's peek of `t_k`
//! gathers the workers' rows.

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use differential_dataflow::input::Input;
use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::{Cursor, TraceReader};
use timely::dataflow::operators::Probe;
use timely::progress::Antichain;

use crate::cpu;

/// What one bare run is asked to do, and must answer.
pub struct Work {
    pub rows: i64,
    pub chunk: i64,
    pub workers: usize,
    pub lookups: Vec<i64>,
    pub counts: u64,
    /// Whole-index reads.
    pub scans: u64,
    /// `(count, sum(k), sum(v))` of the whole table.
    pub aggregate: (i64, i64, i64),
}

/// Wall time of the two phases, measured on worker 0 between barriers.
pub struct Times {
    pub build: Duration,
    pub serve: Duration,
    /// The process's CPU time over each phase, both workers'.
    pub build_cpu: Duration,
    pub serve_cpu: Duration,
    /// The heap's high-water mark (`crate::heap::PEAK`) when the load was done.
    pub build_peak: usize,
    /// The heap's live bytes (`crate::heap::LIVE`) when the load was done.
    pub build_live: usize,
}

/// Runs `work` on `work.workers` timely workers; panics on a wrong answer.
pub fn run(work: &Work) -> Times {
    let (rows, chunk, lookups, counts, scans, aggregate) = (
        work.rows,
        work.chunk,
        work.lookups.clone(),
        work.counts,
        work.scans,
        work.aggregate,
    );
    let barrier = Arc::new(Barrier::new(work.workers));
    // Each worker's part of a whole-index read.
    let scanned: Arc<Mutex<Vec<(i32, i32, i64)>>> = Arc::new(Mutex::new(Vec::new()));
    let times = Arc::new(Mutex::new(None));
    let found = Arc::new(AtomicI64::new(0));
    let (times_out, found_out) = (Arc::clone(&times), Arc::clone(&found));
    let guards = timely::execute(timely::Config::process(work.workers), move |worker| {
        let index = worker.index();
        let (mut input, mut trace, probe) = worker.dataflow::<u64, _, _>(|scope| {
            let (input, pairs) = scope.new_collection::<(i32, i32), i64>();
            let arranged = pairs.arrange_by_key();
            let (probe, _) = arranged.stream.clone().probe();
            (input, arranged.trace, probe)
        });
        let int = |i: i64| i32::try_from(i).expect("keys fit an i32");
        barrier.wait();
        let (start, cpu_start) = (Instant::now(), cpu::total());
        for (batch, first) in (0..rows).step_by(chunk as usize).enumerate() {
            if index == 0 {
                for k in first..rows.min(first + chunk) {
                    input.update((int(k), int(k % 1000)), 1);
                }
            }
            input.advance_to(batch as u64 + 1);
            input.flush();
            // Parked while it waits on the other worker, so that it spends no
            // CPU then, as the engine's idle workers do not.
            worker.step_or_park_while(None, || probe.less_than(input.time()));
            // As the engine's read policy does after every write: the trace
            // may compact to the last complete time (which lets the spine
            // merge the batch in, as the engine's must).
            let since = Antichain::from_elem(batch as u64);
            trace.set_logical_compaction(since.borrow());
            trace.set_physical_compaction(since.borrow());
        }
        barrier.wait();
        let (build, build_cpu) = (start.elapsed(), cpu::total() - cpu_start);
        let (build_peak, build_live) = (
            crate::heap::PEAK.load(Relaxed),
            crate::heap::LIVE.load(Relaxed),
        );
        let now = *input.time();
        // As the engine's read policy does: the trace may compact to the
        // last complete time, and a read sees every update there.
        let since = Antichain::from_elem(now - 1);
        trace.set_logical_compaction(since.borrow());
        trace.set_physical_compaction(since.borrow());

        let (start, cpu_start) = (Instant::now(), cpu::total());
        for k in &lookups {
            let batches = trace
                .batches_through(Antichain::new().borrow())
                .expect("a trace hands out its batches");
            let (mut cursor, storage) = cursor_list(batches);
            cursor.seek_key(&storage, &int(*k));
            if cursor.key_valid(&storage) && *cursor.key(&storage) == int(*k) {
                while cursor.val_valid(&storage) {
                    let mut count = 0;
                    cursor.map_times(&storage, |_t, r| count += *r);
                    found.fetch_add(count, Relaxed);
                    cursor.step_val(&storage);
                }
            }
        }
        for _ in 0..counts {
            let result = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&result);
            let dataflow = worker.next_dataflow_index();
            let probe = worker.dataflow::<u64, _, _>(|scope| {
                let (probe, _) = trace
                    .import_frontier(scope, "Aggregate")
                    .0
                    .as_collection(|k: &i32, v: &i32| ((), (*k, *v)))
                    .reduce(|_key: &(), pairs: &[(&(i32, i32), i64)], out| {
                        let (mut n, mut sk, mut sv) = (0i64, 0i64, 0i64);
                        for ((k, v), r) in pairs {
                            n += r;
                            sk += i64::from(*k) * r;
                            sv += i64::from(*v) * r;
                        }
                        out.push(((n, sk, sv), 1i64));
                    })
                    .inspect(move |(((), sums), _t, r)| {
                        sink.lock().expect("result").push((*sums, *r))
                    })
                    .probe();
                probe
            });
            worker.step_or_park_while(None, || probe.less_than(&now));
            worker.drop_dataflow(dataflow);
            // One worker holds the single group; the others see nothing.
            // Its changes over the chunks' times add up to the whole table's.
            let mut net: Vec<((i64, i64, i64), i64)> = result.lock().expect("result").clone();
            differential_dataflow::consolidation::consolidate(&mut net);
            assert!(
                net.is_empty() || net == [(aggregate, 1)],
                "bare aggregate: {net:?}"
            );
        }
        for _ in 0..scans {
            let batches = trace
                .batches_through(Antichain::new().borrow())
                .expect("a trace hands out its batches");
            let (mut cursor, storage) = cursor_list(batches);
            let mut found = Vec::new();
            while cursor.key_valid(&storage) {
                while cursor.val_valid(&storage) {
                    let mut count = 0;
                    cursor.map_times(&storage, |_t, r| count += *r);
                    let (k, v) = (*cursor.key(&storage), *cursor.val(&storage));
                    found.push((k, v, count));
                    cursor.step_val(&storage);
                }
                cursor.step_key(&storage);
            }
            scanned.lock().expect("scanned").append(&mut found);
            barrier.wait();
            if index == 0 {
                let mut all = std::mem::take(&mut *scanned.lock().expect("scanned"));
                all.sort_unstable();
                assert!(
                    all.len() as i64 == rows
                        && (0..)
                            .zip(&all)
                            .all(|(k, p)| *p == (int(k), int(k % 1000), 1)),
                    "bare scan: every row once, in key order"
                );
            }
            barrier.wait();
        }
        barrier.wait();
        if index == 0 {
            *times.lock().expect("times") = Some(Times {
                build,
                serve: start.elapsed(),
                build_cpu,
                serve_cpu: cpu::total() - cpu_start,
                build_peak,
                build_live,
            });
        }
    })
    .expect("timely starts");
    for result in guards.join() {
        result.expect("a bare worker panicked");
    }
    assert_eq!(
        found_out.load(Relaxed),
        lookups_len(work),
        "bare lookups: every key has one row"
    );
    let times = times_out.lock().expect("times").take();
    times.expect("worker 0 reports")
}

fn lookups_len(work: &Work) -> i64 {
    work.lookups.len() as i64
}
