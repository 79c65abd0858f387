//! Suite throughput: how many runs per second the runner's replay gets
//! through over `testdata/`, with one thread and with two side by side in
//! one process, the CPU it spends in user and system mode, and where a
//! run's time goes (engine start-up, each kind of directive, shut-down).
//!
//! ```text
//! cargo bench -p runner --bench suite [-- --rounds N --jobs N]
//! ```
//!
//! `--jobs N` measures 1 and N threads (default 2). Each round replays
//! every run of every file once per thread count, alternating which goes
//! first; the figures are the medians. Only replay is measured (what the
//! runner's checks add is small and the same per run): files are parsed
//! and their runs expanded up front, and outputs are not compared with the
//! goldens. A run that panics fails the bench. Flags can also be set as
//! `SUITE_BENCH_<NAME>`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use runner::assembly::Assembly;
use runner::format::Script;
use runner::run::replay::replay;
use runner::run::timed::Times;
use runner::suite::matrix::{self, Run};

// The engine's benches read their settings, CPU time and medians the same way.
#[path = "../../engine/benches/common/cpu.rs"]
mod cpu;
#[path = "../../engine/benches/common/figures.rs"]
mod figures;
#[path = "../../engine/benches/common/settings.rs"]
mod settings;

use figures::median;

/// Every file of the suite, parsed, with its runs.
fn load(root: &Path) -> Vec<(Script, Vec<Run>)> {
    let assembly = Assembly::load(
        &root.join("testdata"),
        None,
        Some(&root.join("goldens")),
        None,
    )
    .unwrap_or_else(|e| settings::usage("suite", &e));
    let mut files = Vec::new();
    for rel in &assembly.scenarios {
        let path = assembly.location.scenario(rel);
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("scenario readable");
        let suite = &assembly.location.suite;
        let parsed = matrix::script_and_runs(&path, &shown, suite, &text);
        files.push(parsed.unwrap_or_else(|e| panic!("{e}")));
    }
    files
}

/// One pass over every run with `jobs` threads.
struct Pass {
    runs: usize,
    wall: Duration,
    user: Duration,
    system: Duration,
    by_kind: BTreeMap<&'static str, Duration>,
}

fn pass(files: &[(Script, Vec<Run>)], jobs: usize) -> Pass {
    let work: Vec<(&Script, &Run)> = files
        .iter()
        .flat_map(|(script, runs)| runs.iter().map(move |run| (script, run)))
        .collect();
    let (user0, system0) = cpu::user_system();
    let start = Instant::now();
    let by_kind: Vec<BTreeMap<&'static str, Duration>> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..jobs)
            .map(|job| {
                let work = &work;
                scope.spawn(move || {
                    let times = Times::default();
                    let engine = |config: &_| times.engine(config);
                    for (script, run) in work.iter().skip(job).step_by(jobs) {
                        if let Err(panic) = replay(script, run, &engine) {
                            panic!("{run}: {}", panic.panic.message);
                        }
                    }
                    times.take()
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("bench thread"))
            .collect()
    });
    let wall = start.elapsed();
    let (user1, system1) = cpu::user_system();
    let mut total = BTreeMap::new();
    for (kind, time) in by_kind.into_iter().flatten() {
        *total.entry(kind).or_default() += time;
    }
    Pass {
        runs: work.len(),
        wall,
        user: user1 - user0,
        system: system1 - system0,
        by_kind: total,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = settings::setting("suite", &args, "rounds", 3);
    let jobs: usize = settings::setting("suite", &args, "jobs", 2);
    if rounds == 0 || jobs == 0 {
        settings::usage("suite", "--rounds and --jobs must be at least 1");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the runner crate is in the workspace");
    let files = load(root);
    let counts: Vec<usize> = if jobs == 1 { vec![1] } else { vec![1, jobs] };
    println!(
        "suite bench: {} files, {} runs per pass, thread counts {counts:?}, {rounds} rounds",
        files.len(),
        files.iter().map(|(_, runs)| runs.len()).sum::<usize>()
    );
    let mut passes: BTreeMap<usize, Vec<Pass>> = BTreeMap::new();
    for round in 0..rounds {
        let mut order = counts.clone();
        if round % 2 == 1 {
            order.reverse();
        }
        for &n in &order {
            let p = pass(&files, n);
            println!(
                "round {round} jobs {n}: {} runs in {:.2} s ({:.0} runs/s), user {:.2} s, system {:.2} s",
                p.runs,
                p.wall.as_secs_f64(),
                p.runs as f64 / p.wall.as_secs_f64(),
                p.user.as_secs_f64(),
                p.system.as_secs_f64()
            );
            passes.entry(n).or_default().push(p);
        }
    }
    println!();
    println!("median   runs/s   runs/s per core   wall s   user s   system s   system/user");
    for (n, ps) in &passes {
        let runs = ps[0].runs as f64;
        let wall = median(ps.iter().map(|p| p.wall).collect()).as_secs_f64();
        let user = median(ps.iter().map(|p| p.user).collect()).as_secs_f64();
        let system = median(ps.iter().map(|p| p.system).collect()).as_secs_f64();
        println!(
            "jobs {n}   {:>6.0}   {:>15.0}   {wall:>6.2}   {user:>6.2}   {system:>8.2}   {:>10.2}",
            runs / wall,
            runs / (user + system).max(f64::EPSILON),
            system / user.max(f64::EPSILON)
        );
    }
    // Where a run's time goes, from the one-thread passes.
    let single = &passes[&1];
    let mut by_kind: BTreeMap<&str, Duration> = BTreeMap::new();
    for p in single {
        for (kind, time) in &p.by_kind {
            *by_kind.entry(kind).or_default() += *time;
        }
    }
    let total: Duration = by_kind.values().sum();
    let runs = (single[0].runs * single.len()) as f64;
    let mut kinds: Vec<(&str, Duration)> = by_kind.into_iter().collect();
    kinds.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    println!();
    println!(
        "where a run's time goes (jobs 1): {:.0} us per run",
        total.as_secs_f64() * 1e6 / runs
    );
    for (kind, time) in kinds {
        println!(
            "  {kind:<14} {:>5.1}%  {:>7.0} us per run",
            100.0 * time.as_secs_f64() / total.as_secs_f64(),
            time.as_secs_f64() * 1e6 / runs
        );
    }
}
