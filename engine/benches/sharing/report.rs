//! What the sharing bench prints: the workload's line, a line per side and
//! round as it runs, then the medians, the on/off, join and engine/bare
//! ratios, bytes per row, and each ratio judged against its goal. Apart
//! from the runs (`measure.rs`), so that how figures are measured and how
//! they are reported can each be read alone.

use std::io::Write;
use std::time::Duration;

use crate::figures::{self, goal, millis};
use crate::measure::{Measurement, SIDES};
use crate::options::Options;

/// Goal for the on/off ratio of the median total time (the issue that
/// added the bare run asks for at most 1.10x, as before it).
const TIME_GOAL: f64 = 1.10;
/// Goal for the on/off ratio of the median peak heap.
const MEMORY_GOAL: f64 = 1.10;
/// Goal for engine/bare, total time (without the join) and peak heap.
const BARE_GOAL: f64 = 2.0;
/// Goal for engine/bare bytes per indexed row by the end of the load.
const BYTES_GOAL: f64 = 3.0;

/// The workload's line and the header of the per-round table.
pub fn header(options: &Options) {
    println!(
        "sharing bench: rows {}, rows per INSERT {} ({}), workers {}, lookups {}, aggregates {}, index peeks {}, delta joins {}, rounds {}",
        options.rows,
        options.chunk,
        if options.series { "generate_series" } else { "VALUES" },
        options.workers,
        options.lookups,
        options.counts,
        options.scans,
        options.joins,
        options.rounds,
    );
    println!();
    println!(
        "{:<6}{:<8}{:>12}{:>12}{:>12}{:>12}{:>14}",
        "round", "sharing", "build ms", "serve ms", "total ms", "peak MiB", "shared reads"
    );
}

/// The line of one side's run in round `round` (0-based).
pub fn round(round: usize, name: &str, m: &Measurement) {
    println!(
        "{:<6}{:<8}{:>12.1}{:>12.1}{:>12.1}{:>12.1}{:>14}",
        round + 1,
        name,
        millis(m.build),
        millis(m.serve),
        millis(m.total()),
        mebibytes(m.peak),
        m.shared_reads
    );
    std::io::stdout().flush().expect("stdout");
}

/// The medians of each side's `runs` (in [`SIDES`] order), their ratios and
/// the goals' verdicts.
pub fn summary(options: &Options, runs: [Vec<Measurement>; 3]) {
    let medians = runs.map(|runs| Medians::of(&runs));
    println!();
    println!(
        "{:<14}{:>12}{:>12}{:>12}{:>12}",
        "median", "build ms", "serve ms", "total ms", "peak MiB"
    );
    for (name, m) in SIDES.iter().zip(&medians) {
        println!(
            "{:<14}{:>12.1}{:>12.1}{:>12.1}{:>12.1}",
            name,
            millis(m.build),
            millis(m.serve),
            millis(m.total),
            mebibytes(m.peak)
        );
    }
    let [off, on, bare] = &medians;
    let time = |f: fn(&Medians) -> Duration| millis(f(on)) / millis(f(off));
    let memory = on.peak as f64 / off.peak as f64;
    println!(
        "{:<14}{:>11.2}x{:>11.2}x{:>11.2}x{:>11.2}x",
        "on/off",
        time(|m| m.build),
        time(|m| m.serve),
        time(|m| m.total),
        memory
    );
    println!(
        "{:<14}{:>11.2}x  (delta-join reads: {:.1} ms off, {:.1} ms on)",
        "join on/off",
        time(|m| m.join),
        millis(off.join),
        millis(on.join)
    );
    // The engine's own reads beside the bare ones: the join has no bare twin,
    // so neither its time nor its heap counts here.
    let engine_bare = |f: fn(&Medians) -> Duration| millis(f(off)) / millis(f(bare));
    let peak = off.reads_peak as f64 / bare.reads_peak as f64;
    println!(
        "{:<14}{:>11.2}x{:>11.2}x{:>11.2}x{:>11.2}x  (wall time, sharing off; serve and peak without the join)",
        "engine/bare",
        engine_bare(|m| m.build),
        engine_bare(|m| m.serve - m.join),
        engine_bare(|m| m.total - m.join),
        peak
    );
    println!(
        "{:<14}{:>11.2}x{:>11.2}x{:>11.2}x  (CPU time of every thread: {:.1} ms engine off, {:.1} ms bare DD)",
        "engine/bare",
        engine_bare(|m| m.build_cpu),
        engine_bare(|m| m.serve_cpu),
        engine_bare(|m| m.cpu),
        millis(off.cpu),
        millis(bare.cpu),
    );
    let per_row = |bytes: usize| bytes as f64 / options.rows as f64;
    println!(
        "{:<14}{:>12.1}{:>12.1}  (peak heap bytes per indexed row without the join: engine off, bare DD; {:.2}x)",
        "bytes/row",
        per_row(off.reads_peak),
        per_row(bare.reads_peak),
        peak
    );
    let load_bytes = per_row(off.build_peak) / per_row(bare.build_peak);
    println!(
        "{:<14}{:>12.1}{:>12.1}  (the same by the end of the load, before any read; {:.2}x)",
        "bytes/row",
        per_row(off.build_peak),
        per_row(bare.build_peak),
        load_bytes
    );
    // What stays, apart from what a build holds while it runs: the goal's
    // peak cannot fall below what the engine keeps.
    println!(
        "{:<14}{:>12.1}{:>12.1}  (live heap bytes per row once loaded; engine off once indexed: {:.1}, {:.2}x)",
        "bytes/row",
        per_row(off.loaded_live),
        per_row(bare.loaded_live),
        per_row(off.indexed_live),
        per_row(off.indexed_live) / per_row(bare.loaded_live)
    );
    println!();
    goal("time (total)  on/off", time(|m| m.total), TIME_GOAL);
    goal("memory (peak) on/off", memory, MEMORY_GOAL);
    let total = engine_bare(|m| m.total - m.join);
    goal("time (total)  engine/bare", total, BARE_GOAL);
    let cpu = engine_bare(|m| m.cpu);
    goal("time (CPU)    engine/bare", cpu, BARE_GOAL);
    goal("memory (peak) engine/bare", peak, BARE_GOAL);
    goal("bytes/row (load) engine/bare", load_bytes, BYTES_GOAL);
    if on.shared_reads == 0 {
        println!("note: with sharing on no read was served through a shared import");
    }
}

/// Per-configuration medians, each figure taken on its own.
struct Medians {
    build: Duration,
    serve: Duration,
    join: Duration,
    total: Duration,
    build_cpu: Duration,
    serve_cpu: Duration,
    /// Build and serve CPU without the join.
    cpu: Duration,
    peak: usize,
    reads_peak: usize,
    build_peak: usize,
    loaded_live: usize,
    indexed_live: usize,
    shared_reads: u64,
}

impl Medians {
    fn of(runs: &[Measurement]) -> Medians {
        Medians {
            build: median(runs, |m| m.build),
            serve: median(runs, |m| m.serve),
            join: median(runs, |m| m.join),
            total: median(runs, Measurement::total),
            build_cpu: median(runs, |m| m.build_cpu),
            serve_cpu: median(runs, |m| m.serve_cpu),
            cpu: median(runs, |m| m.build_cpu + m.serve_cpu),
            peak: median(runs, |m| m.peak),
            reads_peak: median(runs, |m| m.reads_peak),
            build_peak: median(runs, |m| m.build_peak),
            loaded_live: median(runs, |m| m.loaded_live),
            indexed_live: median(runs, |m| m.indexed_live),
            shared_reads: median(runs, |m| m.shared_reads),
        }
    }
}

/// The median of one figure over the runs.
fn median<T: Copy + Ord>(runs: &[Measurement], figure: impl Fn(&Measurement) -> T) -> T {
    figures::median(runs.iter().map(figure).collect())
}

fn mebibytes(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
