//! Golden diff cost: how the time to report a changed golden grows with
//! the number of changed directives, side by side in one run, so that the
//! growth is read as a ratio and not as a time on one machine.
//!
//! ```text
//! cargo bench -p runner --bench diff [-- --rounds N]
//! ```
//!
//! Two shapes, each at every size: `answers`, a golden of `query`
//! directives whose every answer changed (the shape that once took 33.7 s
//! for 100,000 directives in a debug build), and `rewritten`, where every
//! directive's SQL changed too (the worst case of a shortest diff: almost
//! nothing in common). Each round times every size once, in an order
//! rotated by the round; the figures are the medians. Linear growth shows as a constant time per
//! directive, so the bench prints that and the ratio of the largest size's
//! per-directive time to the smallest's (1.0 is linear, 4.0 quadratic
//! over a 4x range).

use std::time::Instant;

use runner::check::diff::{unified, Landmark};

/// Changed directives per size; the first is the smallest.
const SIZES: [usize; 3] = [25_000, 50_000, 100_000];

/// A golden of `n` directives and a replay whose every answer differs, and
/// with `rewritten` every SQL text as well.
fn texts(n: usize, rewritten: bool) -> (String, String, Vec<Landmark>) {
    let (mut old, mut new, mut landmarks) = (String::new(), String::new(), Vec::new());
    for i in 0..n {
        landmarks.push(Landmark {
            line: 4 * i,
            label: format!("t.dd:{}: query", 4 * i + 1),
        });
        old.push_str(&format!("query\nSELECT {i}\n----\n{i}\n"));
        let sql = if rewritten {
            format!("SELECT {i} + 0")
        } else {
            format!("SELECT {i}")
        };
        new.push_str(&format!("query\n{sql}\n----\n{}\n", i + 1));
    }
    (old, new, landmarks)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut rounds = 3;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|r| r.parse().ok())
                    .expect("--rounds N")
            }
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    for (shape, rewritten) in [("answers", false), ("rewritten", true)] {
        measure(shape, rewritten, rounds);
    }
}

/// Times `unified` over every size of one shape and prints the figures.
fn measure(shape: &str, rewritten: bool, rounds: usize) {
    let inputs: Vec<_> = SIZES.iter().map(|&n| texts(n, rewritten)).collect();
    let mut seconds = vec![Vec::new(); SIZES.len()];
    for round in 0..rounds {
        for k in 0..SIZES.len() {
            let k = (k + round) % SIZES.len();
            let (old, new, landmarks) = &inputs[k];
            let start = Instant::now();
            let report = unified("golden", old, "replayed", new, landmarks);
            seconds[k].push(start.elapsed().as_secs_f64());
            assert!(report.len() < 1 << 20, "the report is bounded");
        }
    }
    let per: Vec<f64> = seconds
        .iter_mut()
        .zip(SIZES)
        .map(|(s, n)| {
            s.sort_by(f64::total_cmp);
            let median = s[s.len() / 2];
            println!(
                "{shape:>9} {n:>7} changed directives: {:>8.1} ms, {:.2} us per directive",
                median * 1e3,
                median * 1e6 / n as f64
            );
            median / n as f64
        })
        .collect();
    println!(
        "{shape:>9} per-directive time, {} over {} directives: {:.2}x (1.0 is linear)",
        SIZES[SIZES.len() - 1],
        SIZES[0],
        per[per.len() - 1] / per[0]
    );
}
