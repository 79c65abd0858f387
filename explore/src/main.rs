//! `explore`: generates scenarios from a range of seeds, checks each under
//! the suite's configurations, shrinks every failure and writes it as a
//! scenario file with its golden under `OUT/testdata/explore/` and
//! `OUT/goldens/explore/`.
//!
//! ```text
//! cargo run --release -p explore -- [--seeds A..B] [--jobs N] [--partition K/N]
//!                                   [--out DIR] [--steps N]
//! ```

use std::path::PathBuf;
use std::process::exit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use explore::check::{check, Failure, Matrix};
use explore::generate::{generate, GenConfig, Scenario, VERSION};
use explore::shrink::shrink;

struct Options {
    seeds: std::ops::Range<u64>,
    jobs: usize,
    /// (k, n): only seeds with `seed % n == k - 1`.
    partition: (u64, u64),
    out: PathBuf,
    config: GenConfig,
}

fn usage(message: &str) -> ! {
    eprintln!("explore: {message}");
    eprintln!("usage: explore [--seeds A..B] [--jobs N] [--partition K/N] [--out DIR] [--steps N]");
    exit(2)
}

fn parse(args: &[String]) -> Options {
    let mut options = Options {
        seeds: 0..100,
        jobs: 1,
        partition: (1, 1),
        out: PathBuf::from("explore-out"),
        config: GenConfig::default(),
    };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .cloned()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        let number = |text: &str| -> u64 {
            text.parse()
                .unwrap_or_else(|_| usage(&format!("{flag}: not a number: {text}")))
        };
        match flag.as_str() {
            "--seeds" => {
                let text = value();
                let (a, b) = text
                    .split_once("..")
                    .unwrap_or_else(|| usage("--seeds takes A..B"));
                options.seeds = number(a)..number(b);
            }
            "--jobs" => options.jobs = number(&value()).max(1) as usize,
            "--partition" => {
                let text = value();
                let (k, n) = text
                    .split_once('/')
                    .unwrap_or_else(|| usage("--partition takes K/N"));
                let (k, n) = (number(k), number(n));
                if n == 0 || k == 0 || k > n {
                    usage("--partition K/N needs 1 <= K <= N");
                }
                options.partition = (k, n);
            }
            "--out" => options.out = PathBuf::from(value()),
            "--steps" => options.config.steps = number(&value()) as usize,
            other => usage(&format!("unknown argument {other}")),
        }
    }
    options
}

/// A failure found from one seed, shrunk.
struct Found {
    seed: u64,
    failure: Failure,
    text: String,
    golden: Option<String>,
    steps: (usize, usize),
}

fn header(seed: u64, failure: &Failure, options: &Options) -> Vec<String> {
    let out = options.out.display();
    vec![
        format!("Found by the explorer: seed {seed}, generator version {VERSION}, {} steps.", options.config.steps),
        format!("Failure: {failure}"),
        format!("Regenerate: cargo run --release -p explore -- --seeds {seed}..{} --steps {} --out {out}", seed + 1, options.config.steps),
        format!("Replay: cargo run -p runner -- {out}/testdata --filter explore/seed-{seed}.dd"),
    ]
}

fn explore_seed(seed: u64, options: &Options, matrix: &Matrix) -> Option<Found> {
    let scenario = generate(seed, &options.config);
    let failure = check(&scenario.render(&[]), matrix).failure?;
    let shrunk = shrink(&scenario.steps, |steps| {
        let candidate = Scenario {
            seed,
            steps: steps.to_vec(),
        };
        check(&candidate.render(&[]), matrix)
            .failure
            .is_some_and(|f| f.same_as(&failure))
    });
    let scenario_shrunk = Scenario {
        seed,
        steps: shrunk,
    };
    let last = check(&scenario_shrunk.render(&[]), matrix);
    let failure = last.failure.unwrap_or(failure);
    let text = scenario_shrunk.render(&header(seed, &failure, options));
    // The golden: the reference run's outputs of the file as written.
    let golden = runner::format::Script::parse(std::path::Path::new("x.dd"), "x.dd", &text)
        .ok()
        .filter(|_| !last.reference.is_empty())
        .map(|script| script.transcript(&last.reference).text);
    Some(Found {
        seed,
        failure,
        text,
        golden,
        steps: (scenario.steps.len(), scenario_shrunk.steps.len()),
    })
}

fn write(found: &Found, out: &std::path::Path) -> std::io::Result<()> {
    let name = format!("seed-{}.dd", found.seed);
    let scenarios = out.join("testdata/explore");
    std::fs::create_dir_all(&scenarios)?;
    std::fs::write(scenarios.join(&name), &found.text)?;
    if let Some(golden) = &found.golden {
        let goldens = out.join("goldens/explore");
        std::fs::create_dir_all(&goldens)?;
        std::fs::write(goldens.join(&name), golden)?;
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = parse(&args);
    let matrix = Matrix::default();
    let (k, n) = options.partition;
    let seeds: Vec<u64> = options.seeds.clone().filter(|s| s % n == k - 1).collect();
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let found: Mutex<Vec<Found>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&seed) = seeds.get(i) else { break };
                if let Some(f) = explore_seed(seed, &options, &matrix) {
                    eprintln!(
                        "seed {seed}: {} (shrunk {} -> {} steps)",
                        f.failure, f.steps.0, f.steps.1
                    );
                    found.lock().expect("found").push(f);
                }
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if d.is_multiple_of(10) || d == seeds.len() {
                    eprintln!("explored {d}/{}", seeds.len());
                }
            });
        }
    });
    let mut found = found.into_inner().expect("found");
    found.sort_by_key(|f| f.seed);
    for f in &found {
        if let Err(e) = write(f, &options.out) {
            eprintln!("explore: cannot write seed {}: {e}", f.seed);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "explored {} scenarios in {:.1} s ({:.2}/s), {} failures{}",
        seeds.len(),
        seconds,
        seeds.len() as f64 / seconds.max(1e-9),
        found.len(),
        match found.is_empty() {
            true => String::new(),
            false => format!(" (written under {})", options.out.display()),
        }
    );
    exit(if found.is_empty() { 0 } else { 1 })
}
