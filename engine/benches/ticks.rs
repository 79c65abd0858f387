//! Whether a `tick` costs more the more ticks came before it: a table, an
//! index and a few rows, then many ticks, on an engine with sharing off and
//! 1 worker, one with sharing on and 3 workers (seed 7), and, to tell what
//! the workers cost from what sharing costs, one with sharing off and 3
//! workers, side by side in one process; beside them, the same ticks on
//! bare differential dataflow with 1 and with 3 workers (`bare`), the
//! floor any engine stepping its workers on one thread stands on. Prints
//! each side's time for its first and last window of ticks (growth:
//! last/first, 1.00x when a tick's cost does not depend on history), the
//! shared/solo ratios per run, and engine/bare.
//!
//! ```text
//! cargo bench -p engine --bench ticks [-- --ticks N --window N --rounds N]
//! ```
//!
//! Each flag can also be set as `TICKS_BENCH_<NAME>`; a flag wins over the
//! variable. Other arguments (cargo passes `--bench`) are ignored.

use std::io::Write;
use std::time::{Duration, Instant};

use engine::repr::Datum;
use engine::{Config, Engine, JoinPlan, Outcome};

#[path = "ticks/bare.rs"]
mod bare;
#[path = "common/figures.rs"]
mod figures;
#[path = "common/settings.rs"]
mod settings;

use figures::{goal, median, median_ratio, millis};

/// Goal for shared (3 workers) over solo (1 worker), per run.
const SHARED_GOAL: f64 = 2.0;
/// Goal for the last window of ticks over the first.
const GROWTH_GOAL: f64 = 1.2;

struct Options {
    ticks: usize,
    /// Ticks in the first and in the last window compared for growth.
    window: usize,
    rounds: usize,
}

impl Options {
    fn parse(args: &[String]) -> Options {
        let options = Options {
            ticks: setting(args, "ticks", 10_000),
            window: setting(args, "window", 1_000),
            rounds: setting(args, "rounds", 3),
        };
        if options.window == 0 || options.rounds == 0 || options.ticks < 2 * options.window {
            usage("--window and --rounds must be at least 1, --ticks at least two windows");
        }
        options
    }
}

fn setting<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    settings::setting("ticks", args, name, default)
}

fn usage(message: &str) -> ! {
    settings::usage("ticks", message)
}

/// What one side runs.
#[derive(Clone, Copy)]
enum Side {
    /// The engine, its scheduler seeded with 7.
    Engine { sharing: bool, workers: usize },
    /// The same ticks on bare differential dataflow (`bare`).
    Bare { workers: usize },
    /// The same, a thread per worker (`bare::threaded`).
    Threaded { workers: usize },
}

/// The sides, by name.
const SIDES: [(&str, Side); 6] = [
    (
        "solo w1",
        Side::Engine {
            sharing: false,
            workers: 1,
        },
    ),
    (
        "shared w3",
        Side::Engine {
            sharing: true,
            workers: 3,
        },
    ),
    (
        "solo w3",
        Side::Engine {
            sharing: false,
            workers: 3,
        },
    ),
    ("bare w1", Side::Bare { workers: 1 }),
    ("bare w3", Side::Bare { workers: 3 }),
    ("threads w3", Side::Threaded { workers: 3 }),
];

/// One run's figures.
#[derive(Clone, Copy)]
struct Measurement {
    total: Duration,
    first: Duration,
    last: Duration,
}

impl Measurement {
    /// The figures of one run's tick times.
    fn of(options: &Options, times: &[Duration]) -> Measurement {
        let sum = |ts: &[Duration]| ts.iter().sum::<Duration>();
        Measurement {
            total: sum(times),
            first: sum(&times[..options.window]),
            last: sum(&times[times.len() - options.window..]),
        }
    }

    fn growth(&self) -> f64 {
        self.last.as_secs_f64() / self.first.as_secs_f64()
    }
}

/// Runs one side's ticks, timing every tick; checks the rows are still
/// there at the end, so a broken side cannot post a good figure.
fn run(options: &Options, side: Side) -> Measurement {
    match side {
        Side::Engine { sharing, workers } => run_engine(options, sharing, workers),
        Side::Bare { workers } => {
            let mut bare = bare::Bare::new(workers);
            let measurement = measure(options, || bare.tick());
            assert_eq!(bare.rows(), 3, "bare w{workers} lost its rows");
            measurement
        }
        Side::Threaded { workers } => {
            let (times, rows) = bare::threaded(workers, options.ticks as u64);
            assert_eq!(rows, 3, "threads w{workers} lost its rows");
            Measurement::of(options, &times)
        }
    }
}

fn run_engine(options: &Options, sharing: bool, workers: usize) -> Measurement {
    let mut engine = Engine::new(Config {
        sharing,
        workers,
        seed: Some(7),
        joins: JoinPlan::Linear,
    });
    for sql in [
        "CREATE TABLE t (k int, v int)",
        "CREATE INDEX t_k ON t (k)",
        "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
    ] {
        expect(sql, engine.statement(sql), Outcome::Ok);
    }
    let measurement = measure(options, || expect("tick", engine.tick(), Outcome::Ok));
    let int = |k| Datum::Int32(k);
    let rows = (1..=3).map(|k| vec![int(k), int(10 * k)]).collect();
    expect(
        "SELECT * FROM t",
        engine.query("SELECT * FROM t"),
        Outcome::Rows(rows),
    );
    measurement
}

/// Times every one of `options.ticks` calls of `tick`.
fn measure(options: &Options, mut tick: impl FnMut()) -> Measurement {
    let mut times = Vec::with_capacity(options.ticks);
    for _ in 0..options.ticks {
        let start = Instant::now();
        tick();
        times.push(start.elapsed());
    }
    Measurement::of(options, &times)
}

fn expect(what: &str, got: Outcome, expected: Outcome) {
    if got != expected {
        panic!("{what}: expected {expected:?}, got {got:?}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = Options::parse(&args);
    println!(
        "ticks bench: ticks {}, window {}, rounds {}",
        options.ticks, options.window, options.rounds
    );
    println!();
    println!(
        "{:<6}{:<11}{:>12}{:>14}{:>14}{:>9}",
        "round", "side", "total ms", "first ms", "last ms", "growth"
    );
    let mut runs: [Vec<Measurement>; SIDES.len()] = Default::default();
    for round in 0..options.rounds {
        let mut order: [usize; SIDES.len()] = std::array::from_fn(|side| side);
        order.rotate_left(round % SIDES.len());
        for side in order {
            let (name, what) = SIDES[side];
            let m = run(&options, what);
            println!(
                "{:<6}{:<11}{:>12.1}{:>14.1}{:>14.1}{:>8.2}x",
                round + 1,
                name,
                millis(m.total),
                millis(m.first),
                millis(m.last),
                m.growth()
            );
            std::io::stdout().flush().expect("stdout");
            runs[side].push(m);
        }
    }
    println!();
    println!(
        "{:<11}{:>12}{:>14}{:>14}{:>9}{:>12}",
        "median", "total ms", "first ms", "last ms", "growth", "us/tick"
    );
    let medians = runs.map(|runs| {
        let median_of = |f: fn(&Measurement) -> Duration| median(runs.iter().map(f).collect());
        (
            median_of(|m| m.total),
            median_of(|m| m.first),
            median_of(|m| m.last),
            median_ratio(runs.iter().map(Measurement::growth).collect()),
        )
    });
    for ((name, ..), (total, first, last, growth)) in SIDES.iter().zip(&medians) {
        println!(
            "{:<11}{:>12.1}{:>14.1}{:>14.1}{:>8.2}x{:>12.1}",
            name,
            millis(*total),
            millis(*first),
            millis(*last),
            growth,
            millis(*total) * 1e3 / options.ticks as f64
        );
    }
    let ratio = |a: usize, b: usize| millis(medians[a].0) / millis(medians[b].0);
    let shared = ratio(1, 0);
    let floor = ratio(4, 3);
    println!(
        "{:<11}{:>11.2}x  (shared w3 / solo w1)",
        "shared/solo", shared
    );
    println!(
        "{:<11}{:>11.2}x  (solo w3 / solo w1: what the workers cost)",
        "workers",
        ratio(2, 0)
    );
    println!(
        "{:<11}{:>11.2}x  (shared w3 / solo w3: what sharing costs)",
        "sharing",
        ratio(1, 2)
    );
    println!(
        "{:<11}{:>11.2}x  (bare w3 / bare w1: what the workers cost on bare DD)",
        "bare", floor
    );
    println!(
        "{:<11}{:>11.2}x  (threads w3 / bare w1: what they cost a thread each)",
        "threads",
        ratio(5, 3)
    );
    println!(
        "{:<11}{:>11.2}x  (solo w1 / bare w1), {:.2}x (solo w3 / bare w3)",
        "engine",
        ratio(0, 3),
        ratio(2, 4)
    );
    println!();
    goal("shared w3 / solo w1", shared, SHARED_GOAL);
    if floor > SHARED_GOAL {
        println!(
            "     (the goal lies below bare differential dataflow's: 3 workers cost it {floor:.2}x of 1)"
        );
    }
    for ((name, ..), (.., growth)) in SIDES.iter().zip(&medians) {
        goal(&format!("growth {name}"), *growth, GROWTH_GOAL);
    }
}
