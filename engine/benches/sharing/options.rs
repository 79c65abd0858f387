//! The sharing bench's options: the workload's size and shape, from the
//! command line or `SHARING_BENCH_<NAME>` (read by `common/settings.rs`),
//! with the checks that make a run meaningful.

use crate::settings;

/// The workload's size and shape.
pub struct Options {
    pub rows: u64,
    pub workers: usize,
    /// Pairs of runs; more rounds make the median less sensitive to noise.
    pub rounds: usize,
    /// Rows per INSERT statement.
    pub chunk: u64,
    /// Load with `INSERT ... SELECT ... FROM generate_series(..)` instead of
    /// literal `VALUES` (the same rows; no SQL text per row to parse).
    pub series: bool,
    /// Point lookups (`SELECT * ... WHERE k = n`, fast-path peeks).
    pub lookups: u64,
    /// Aggregate reads (`SELECT count(*), sum(..)`, slow-path dataflows).
    pub counts: u64,
    /// Whole-index peeks (every row of `t_k`).
    pub scans: u64,
    /// Delta-join reads of `t` with the small indexed table `s`.
    pub joins: u64,
}

impl Options {
    pub fn parse(args: &[String]) -> Options {
        let options = Options {
            rows: setting(args, "rows", 1_000_000),
            workers: setting(args, "workers", 2),
            rounds: setting(args, "rounds", 3),
            chunk: setting(args, "chunk", 10_000),
            series: setting(args, "series", false),
            lookups: setting(args, "lookups", 200),
            counts: setting(args, "counts", 3),
            scans: setting(args, "scans", 1),
            joins: setting(args, "joins", 3),
        };
        if options.rows == 0 || options.workers == 0 || options.rounds == 0 || options.chunk == 0 {
            usage("--rows, --workers, --rounds and --chunk must be at least 1");
        }
        options
    }
}

fn setting<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    settings::setting("sharing", args, name, default)
}

fn usage(message: &str) -> ! {
    settings::usage("sharing", message)
}
