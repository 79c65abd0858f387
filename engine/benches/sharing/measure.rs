//! One run of the sharing bench on one side: the engine with sharing off or
//! on, or bare differential dataflow (`bare.rs`), each loading, indexing and
//! serving the workload with only its own calls timed and its heap counted,
//! and every answer checked so that a broken engine cannot post a good
//! figure.

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use engine::repr::Datum;
use engine::{Config, Engine, JoinPlan, Outcome};

use crate::bare;
use crate::cpu;
use crate::heap::{LIVE, PEAK};
use crate::options::Options;
use crate::workload::{
    row, Workload, AGGREGATE, CREATE_INDEX, CREATE_SMALL, CREATE_SMALL_INDEX, CREATE_TABLE, INDEX,
    JOIN,
};

/// One configuration's figures from one run.
#[derive(Clone, Copy)]
pub struct Measurement {
    pub build: Duration,
    pub serve: Duration,
    /// The part of `serve` spent in delta-join reads.
    pub join: Duration,
    /// CPU time of the load, every thread's (bare's workers run side by
    /// side; the engine steps its workers on one thread).
    pub build_cpu: Duration,
    /// CPU time of the reads without the join.
    pub serve_cpu: Duration,
    /// Peak heap bytes above what was live when the run started.
    pub peak: usize,
    /// The same, before the delta-join reads, which bare lacks.
    pub reads_peak: usize,
    /// The same, by the end of the load (`build`): the arrangements
    /// without what reads add.
    pub build_peak: usize,
    /// Heap bytes live once `t` is loaded (bare: once its load is done).
    pub loaded_live: usize,
    /// Heap bytes live once `t_k` is built (bare: as `loaded_live`).
    pub indexed_live: usize,
    /// Reads the engine says it served through shared imports.
    pub shared_reads: u64,
}

impl Measurement {
    pub fn total(&self) -> Duration {
        self.build + self.serve
    }
}

/// Builds an engine, loads and indexes `t`, serves the reads, checking every
/// answer so a broken engine cannot post a good figure. Only engine calls
/// are timed; the engine is dropped before returning.
fn run(workload: &Workload, options: &Options, sharing: bool) -> Measurement {
    let baseline = LIVE.load(Relaxed);
    PEAK.store(baseline, Relaxed);

    let mut build = Spent::default();
    let mut engine = timed(&mut build, || {
        Engine::new(Config {
            sharing,
            workers: options.workers,
            seed: None,
            joins: JoinPlan::Delta,
        })
    });
    let statements = std::iter::once(CREATE_TABLE)
        .chain(workload.inserts.iter().map(String::as_str))
        .chain([
            CREATE_INDEX,
            CREATE_SMALL,
            &workload.small_insert,
            CREATE_SMALL_INDEX,
        ]);
    let (mut loaded_live, mut indexed_live) = (0, 0);
    for sql in statements {
        if sql == CREATE_INDEX {
            loaded_live = LIVE.load(Relaxed) - baseline;
        }
        let outcome = timed(&mut build, || engine.statement(sql));
        check(sql, outcome, Outcome::Ok);
        if sql == CREATE_INDEX {
            indexed_live = LIVE.load(Relaxed) - baseline;
        }
    }
    let build_peak = PEAK.load(Relaxed) - baseline;

    let mut serve = Spent::default();
    for (sql, k) in &workload.lookups {
        let outcome = timed(&mut serve, || engine.query(sql));
        check(sql, outcome, Outcome::Rows(vec![row(*k)]));
    }
    for _ in 0..options.counts {
        let outcome = timed(&mut serve, || engine.query(AGGREGATE));
        check(
            AGGREGATE,
            outcome,
            Outcome::Rows(vec![workload.aggregate.clone()]),
        );
    }
    for _ in 0..options.scans {
        let outcome = timed(&mut serve, || engine.peek(INDEX, None));
        check_scan(workload.rows, outcome);
    }
    let reads_peak = PEAK.load(Relaxed) - baseline;
    let mut join = Spent::default();
    for _ in 0..options.joins {
        let outcome = timed(&mut join, || engine.query(JOIN));
        check(JOIN, outcome, Outcome::Rows(vec![workload.join.clone()]));
    }

    let peak = PEAK.load(Relaxed) - baseline;
    let shared_reads = engine.witness().shared_reads;
    drop(engine);
    Measurement {
        build: build.wall,
        serve: serve.wall + join.wall,
        join: join.wall,
        build_cpu: build.cpu,
        serve_cpu: serve.cpu,
        peak,
        reads_peak,
        build_peak,
        loaded_live,
        indexed_live,
        shared_reads,
    }
}

/// The same load and reads (no join) on bare differential dataflow, with
/// the heap counted the same way.
fn run_bare(workload: &Workload, options: &Options) -> Measurement {
    let baseline = LIVE.load(Relaxed);
    PEAK.store(baseline, Relaxed);
    let int = |d: &Datum| match d {
        Datum::Int64(i) => *i,
        other => panic!("aggregate datum {other:?}"),
    };
    let work = bare::Work {
        rows: workload.rows,
        chunk: options.chunk as i64,
        workers: options.workers,
        lookups: workload.lookups.iter().map(|(_, k)| *k).collect(),
        counts: options.counts,
        scans: options.scans,
        aggregate: (
            int(&workload.aggregate[0]),
            int(&workload.aggregate[1]),
            int(&workload.aggregate[2]),
        ),
    };
    let times = bare::run(&work);
    let peak = PEAK.load(Relaxed) - baseline;
    Measurement {
        build: times.build,
        serve: times.serve,
        join: Duration::ZERO,
        build_cpu: times.build_cpu,
        serve_cpu: times.serve_cpu,
        peak,
        reads_peak: peak,
        build_peak: times.build_peak - baseline,
        loaded_live: times.build_live - baseline,
        indexed_live: times.build_live - baseline,
        shared_reads: 0,
    }
}

/// Wall and CPU time spent in engine calls.
#[derive(Default)]
struct Spent {
    wall: Duration,
    cpu: Duration,
}

/// Runs `f`, adding its wall and CPU time to `spent`.
fn timed<T>(spent: &mut Spent, f: impl FnOnce() -> T) -> T {
    let (start, cpu_start) = (Instant::now(), cpu::total());
    let result = f();
    spent.wall += start.elapsed();
    spent.cpu += cpu::total() - cpu_start;
    result
}

fn check(sql: &str, got: Outcome, expected: Outcome) {
    if got != expected {
        panic!(
            "{}: expected {}, got {}",
            abbreviate(sql),
            describe(&expected),
            describe(&got)
        );
    }
}

/// A whole-index peek must return every row, in key order.
fn check_scan(rows: i64, got: Outcome) {
    let ok = match &got {
        Outcome::Rows(got) => got.len() as i64 == rows && (0..).zip(got).all(|(k, r)| *r == row(k)),
        _ => false,
    };
    if !ok {
        panic!(
            "peek {INDEX}: expected {rows} rows (k, k % 1000) in order, got {}",
            describe(&got)
        );
    }
}

/// A failure message's view of SQL: INSERTs run to hundreds of kilobytes.
fn abbreviate(sql: &str) -> String {
    const LIMIT: usize = 80;
    match sql.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}... ({} bytes)", &sql[..end], sql.len()),
        None => sql.to_string(),
    }
}

/// A failure message's view of an outcome: the row count and the first rows.
fn describe(outcome: &Outcome) -> String {
    const SHOWN: usize = 3;
    match outcome {
        Outcome::Rows(rows) if rows.len() > SHOWN => {
            format!("{} rows, starting {:?}", rows.len(), &rows[..SHOWN])
        }
        other => format!("{other:?}"),
    }
}

/// The engine with sharing off and on, and bare differential dataflow.
pub const SIDES: [&str; 3] = ["off", "on", "bare DD"];

pub fn run_side(side: usize, workload: &Workload, options: &Options) -> Measurement {
    match side {
        0 => run(workload, options, false),
        1 => run(workload, options, true),
        _ => run_bare(workload, options),
    }
}
