//! The sharing bench's workload: the SQL every run replays (a table `t`
//! loaded in chunks and indexed by `k`, point lookups, aggregates, a
//! whole-index peek, and a delta join with a small indexed table `s`) and
//! the answers each must get, built once up front so that generating text is
//! charged to neither side's time or heap.

use engine::repr::{Datum, Row};

use crate::options::Options;

pub const CREATE_TABLE: &str = "CREATE TABLE t (k int, v int)";
pub const CREATE_INDEX: &str = "CREATE INDEX t_k ON t (k)";
pub const INDEX: &str = "t_k";
pub const AGGREGATE: &str = "SELECT count(*), sum(k), sum(v) FROM t";
/// A small table indexed by the same key, for a delta join with `t`:
/// `s` holds keys `0..SMALL` with `w = 2k`.
const SMALL: i64 = 1000;
pub const CREATE_SMALL: &str = "CREATE TABLE s (k int, w int)";
pub const CREATE_SMALL_INDEX: &str = "CREATE INDEX s_k ON s (k)";
/// Both inputs are indexes arranged by the join key: a delta join, one
/// path looking each of `t`'s rows up in `s_k`, the other each of `s`'s in
/// `t_k`.
pub const JOIN: &str = "SELECT count(*), sum(w) FROM t JOIN s ON t.k = s.k";

/// The SQL a run replays and the answers it must get, built once up front so
/// that generating text is charged to neither configuration's time or heap.
pub struct Workload {
    pub rows: i64,
    pub inserts: Vec<String>,
    /// Each lookup's query and its key.
    pub lookups: Vec<(String, i64)>,
    pub aggregate: Row,
    pub small_insert: String,
    pub join: Row,
}

impl Workload {
    pub fn new(options: &Options) -> Workload {
        let rows = i64::try_from(options.rows).expect("row count fits i64");
        let chunk = i64::try_from(options.chunk).expect("chunk fits i64");
        let inserts = (0..rows)
            .step_by(chunk as usize)
            .map(|start| {
                let end = rows.min(start + chunk);
                if options.series {
                    // `value`, in SQL.
                    return format!(
                        "INSERT INTO t SELECT x, x % 1000 FROM generate_series({start}, {}) AS x",
                        end - 1
                    );
                }
                let values: Vec<String> = (start..end)
                    .map(|k| format!("({k}, {})", value(k)))
                    .collect();
                format!("INSERT INTO t VALUES {}", values.join(", "))
            })
            .collect();
        // A fixed odd stride visits keys spread over the whole table.
        let lookups = (0..options.lookups as i64)
            .map(|i| (i * 7_919 + 13) % rows)
            .map(|k| (format!("SELECT * FROM t WHERE k = {k}"), k))
            .collect();
        let sum_v: i64 = (0..rows).map(value).sum();
        let small: Vec<String> = (0..SMALL).map(|k| format!("({k}, {})", 2 * k)).collect();
        let matched = rows.min(SMALL);
        Workload {
            small_insert: format!("INSERT INTO s VALUES {}", small.join(", ")),
            join: vec![Datum::Int64(matched), Datum::Int64(matched * (matched - 1))],
            rows,
            inserts,
            lookups,
            aggregate: vec![
                Datum::Int64(rows),
                Datum::Int64(rows * (rows - 1) / 2),
                Datum::Int64(sum_v),
            ],
        }
    }
}

/// Column `v` of the row with key `k`.
fn value(k: i64) -> i64 {
    k % 1000
}

/// The table's row with key `k`: two `integer`s (int4).
pub fn row(k: i64) -> Row {
    let int = |i: i64| Datum::Int32(i32::try_from(i).expect("keys fit an integer"));
    vec![int(k), int(value(k))]
}
