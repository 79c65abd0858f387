//! What arrangement sharing costs: the same load, index and serve workload
//! on an engine with sharing off and on, side by side in one process, so
//! both figures come from the same binary and machine state.
//!
//! ```text
//! cargo bench -p engine --bench sharing [-- --rows N --workers N --rounds N
//!                                           --chunk N --lookups N --counts N --scans N
//!                                           --joins N --series true]
//! ```
//!
//! Each flag can also be set as `SHARING_BENCH_<NAME>` (e.g.
//! `SHARING_BENCH_ROWS=10000`); a flag wins over the variable. Other
//! arguments (cargo passes `--bench`) are ignored.
//!
//! This file only wires the bench together: the heap counters are in
//! `sharing/heap.rs`, the options in `sharing/options.rs`, the SQL and its
//! answers in `sharing/workload.rs`, one side's run in
//! `sharing/measure.rs` (the bare side's in `sharing/bare.rs`), and what is
//! printed, with the goals, in `sharing/report.rs`.

#[path = "sharing/bare.rs"]
mod bare;
#[path = "common/cpu.rs"]
mod cpu;
#[path = "common/figures.rs"]
mod figures;
#[path = "sharing/heap.rs"]
mod heap;
#[path = "sharing/measure.rs"]
mod measure;
#[path = "sharing/options.rs"]
mod options;
#[path = "sharing/report.rs"]
mod report;
#[path = "common/settings.rs"]
mod settings;
#[path = "sharing/workload.rs"]
mod workload;

use measure::{Measurement, SIDES};
use options::Options;
use workload::Workload;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = Options::parse(&args);
    let workload = Workload::new(&options);
    report::header(&options);

    // Each round rotates which side goes first, so none always gets the
    // warmer process.
    let mut runs: [Vec<Measurement>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for round in 0..options.rounds {
        let mut order = [0, 1, 2];
        order.rotate_left(round % 3);
        for config in order {
            let m = measure::run_side(config, &workload, &options);
            report::round(round, SIDES[config], &m);
            runs[config].push(m);
        }
    }
    report::summary(&options, runs);
}
