//! The deliberately broken mechanisms, one per bug the seed reviews found
//! (and one per mechanism added since whose failure no other switch shows).
//!
//! A build with the Cargo feature `mutations` has them all, and the
//! environment variable `ENGINE_MUTATION` turns on the one it names, for the
//! whole process and its children (`.ci/mutations` builds once and checks,
//! mutation by mutation, that its scenario fails). Without the feature every
//! switch is the constant `false`: an ordinary build type-checks and lints
//! the mutated branch too, and the optimiser removes it. One build for all
//! of them, rather than a feature each, keeps the check to one compile of
//! the engine.

use std::sync::OnceLock;

/// The variable that names the mutation a `mutations` build has.
pub const VARIABLE: &str = "ENGINE_MUTATION";

/// Every mutation, by the name `ENGINE_MUTATION` and docs/mutations.md's
/// table give it.
pub const NAMES: [&str; 20] = [
    "alias-overwrites",
    "point-frontiers",
    "process-wide-alias",
    "join-errs-per-path",
    "no-reserved-hold",
    "import-hold-leak",
    "no-draining",
    "drain-past-empty-since",
    "subquery-null-keys",
    "nan-below-numbers",
    "concat-null",
    "except-all-as-distinct",
    "rank-as-row-number",
    "distinct-on-keeps-last",
    "interval-compare-as-duration",
    "recursion-drops-binding-errors",
    "lateral-null-keys",
    "aggregate-order-ignored",
    "frame-without-peers",
    "demand-ignored",
];

/// The mutation this process has: none without the `mutations` feature or
/// without the variable. A name that is not a mutation stops the process
/// at the first switch read, naming the variable and the names, rather than
/// checking an engine that has no bug.
fn active() -> Option<&'static str> {
    if !cfg!(feature = "mutations") {
        return None;
    }
    static ACTIVE: OnceLock<Option<&'static str>> = OnceLock::new();
    *ACTIVE.get_or_init(|| {
        let value = std::env::var_os(VARIABLE)?;
        let found = NAMES.iter().find(|name| value.to_str() == Some(name));
        match found {
            Some(name) => Some(*name),
            None => panic!("{VARIABLE}={value:?} names no mutation; the mutations are {NAMES:?}"),
        }
    })
}

fn on(name: &str) -> bool {
    active() == Some(name)
}

/// A re-export's alias replaces a point a reader already bound.
pub fn alias_overwrites() -> bool {
    on("alias-overwrites")
}
/// One writer frontier and one standing hold per point, not per collection.
pub fn point_frontiers() -> bool {
    on("point-frontiers")
}
/// The alias relation looked up without the worker.
pub fn process_wide_alias() -> bool {
    on("process-wide-alias")
}
/// A join input's errors counted once more per delta path that reads it.
pub fn join_errs_per_path() -> bool {
    on("join-errs-per-path")
}
/// No hold reserved for the interactive peer when a point is published.
pub fn no_reserved_hold() -> bool {
    on("no-reserved-hold")
}
/// A shared import never gives its hold up.
pub fn import_hold_leak() -> bool {
    on("import-hold-leak")
}
/// A dropped collection's publication ends while an import still reads it.
pub fn no_draining() -> bool {
    on("no-draining")
}
/// A draining publication that nothing holds (its imports all read to
/// their end) compacts its handles to the empty frontier and reads on.
pub fn drain_past_empty_since() -> bool {
    on("drain-past-empty-since")
}
/// A subquery's values join back to the outer rows without matching a NULL
/// key to a NULL key, so an outer row whose correlated columns are NULL
/// gets the subquery's value over no rows instead of its own.
pub fn subquery_null_keys() -> bool {
    on("subquery-null-keys")
}
/// SQL's comparison operators put a float NaN below every number instead
/// of above (`min`, `max`, `ORDER BY` and arrangements keep their order).
pub fn nan_below_numbers() -> bool {
    on("nan-below-numbers")
}
/// `concat` of a NULL argument is NULL, as a strict function's would be,
/// instead of skipping it.
pub fn concat_null() -> bool {
    on("concat-null")
}
/// `EXCEPT ALL` subtracts as `EXCEPT` does: both sides made distinct
/// first, so a row the left side has more often than the right shows once.
pub fn except_all_as_distinct() -> bool {
    on("except-all-as-distinct")
}
/// `rank` numbers the rows of a partition as `row_number` does: peers (rows
/// whose ORDER BY values are equal) get consecutive ranks, not the same.
pub fn rank_as_row_number() -> bool {
    on("rank-as-row-number")
}
/// `SELECT DISTINCT ON` keeps the last row of each group by the ORDER BY
/// after its expressions, not the first.
pub fn distinct_on_keeps_last() -> bool {
    on("distinct-on-keeps-last")
}
/// SQL's comparison of two intervals measures each as PostgreSQL does
/// (30 days a month, 24 hours a day), so `'1 month' = '30 days'`, instead
/// of comparing months, days and microseconds in turn as the real system
/// does (arrangements and hashes keep the derived order).
pub fn interval_compare_as_duration() -> bool {
    on("interval-compare-as-duration")
}
/// The body of a `WITH MUTUALLY RECURSIVE` reads its bindings' rows
/// without their errors, as a `Local` reads a `Let`'s, so an error that
/// arises inside the loop never reaches a read.
pub fn recursion_drops_binding_errors() -> bool {
    on("recursion-drops-binding-errors")
}
/// A LATERAL subquery's rows join back to the FROM's rows without matching
/// a NULL key to a NULL key, so a left row whose named columns are NULL
/// loses its rows (an inner join drops it, a LEFT JOIN pads it with NULLs).
pub fn lateral_null_keys() -> bool {
    on("lateral-null-keys")
}
/// An order-sensitive aggregate (`string_agg`, `array_agg`, `jsonb_agg`,
/// `jsonb_object_agg`) sorts its rows by their values alone, not first by
/// the `ORDER BY` written in its call.
pub fn aggregate_order_ignored() -> bool {
    on("aggregate-order-ignored")
}
/// A window's rows have no peers: each row is its own last peer, so the
/// default frame (`RANGE ... CURRENT ROW`) of an aggregate over a window,
/// and `last_value`'s, ends at the row instead of at its last tie.
pub fn frame_without_peers() -> bool {
    on("frame-without-peers")
}
/// A `Map`'s expressions are all computed, whether or not anything above
/// reads their columns, so an unread column's error fails the read.
pub fn demand_ignored() -> bool {
    on("demand-ignored")
}

#[cfg(test)]
mod tests {
    use super::NAMES;

    /// `.ci/mutations` takes its mutations from docs/mutations.md's table and
    /// sets `ENGINE_MUTATION` to each: a name there that is not one here
    /// would make the engine panic, which the script would count as caught.
    #[test]
    fn the_table_names_exactly_these_mutations() {
        let table = include_str!("../../docs/mutations.md");
        let mut inside = false;
        let mut listed = vec![];
        for line in table.lines() {
            if line.starts_with("## ") {
                inside = line == "## Mutations and their scenarios";
            } else if inside && line.starts_with("| `") {
                listed.push(line.split('`').nth(1).expect("a backticked name"));
            }
        }
        assert_eq!(
            listed, NAMES,
            "docs/mutations.md's table and mutation::NAMES differ"
        );
    }
}
