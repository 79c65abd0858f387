//! Shrinking a failing scenario: delta debugging over its steps. Chunks of
//! steps, then single steps, are removed (each with every step that depends
//! on what it creates, so the scenario stays valid), and a candidate is
//! kept only if it still fails the same way. Ends when no single step can
//! go: a 1-minimal scenario.

use crate::generate::{without, Step};

/// Shrinks `steps`, which `fails` holds for, to a 1-minimal list `fails`
/// still holds for. `fails` is called once per candidate.
pub fn shrink(steps: &[Step], mut fails: impl FnMut(&[Step]) -> bool) -> Vec<Step> {
    let mut current = steps.to_vec();
    let mut chunk = current.len().div_ceil(2).max(1);
    loop {
        let mut progressed = false;
        let mut start = 0;
        while start < current.len() {
            let removed: Vec<usize> = (start..(start + chunk).min(current.len())).collect();
            let candidate = without(&current, &removed);
            if candidate.len() < current.len() && fails(&candidate) {
                current = candidate;
                progressed = true;
            } else {
                start += chunk;
            }
        }
        if chunk == 1 && !progressed {
            return current;
        }
        if !progressed {
            chunk = chunk.div_ceil(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(text: &str, creates: Option<&str>, uses: &[&str]) -> Step {
        Step {
            text: text.to_string(),
            creates: creates.map(String::from),
            uses: uses.iter().map(|u| u.to_string()).collect(),
        }
    }

    /// A planted failure: "a DELETE after an index on its table". The
    /// shrinker must keep exactly the table, the index and the DELETE.
    #[test]
    fn a_planted_failure_shrinks_to_its_three_steps() {
        let steps = vec![
            step("CREATE TABLE t1", Some("t1"), &[]),
            step("CREATE TABLE t2", Some("t2"), &[]),
            step("INSERT t1", None, &["t1"]),
            step("CREATE VIEW v3 ON t1", Some("v3"), &["t1"]),
            step("CREATE INDEX i4 ON t1", Some("i4"), &["t1"]),
            step("INSERT t2", None, &["t2"]),
            step("SELECT v3", None, &["v3"]),
            step("DELETE t1", None, &["t1"]),
            step("tick", None, &[]),
        ];
        let fails = |s: &[Step]| {
            let index = s.iter().position(|s| s.text.starts_with("CREATE INDEX"));
            let delete = s.iter().position(|s| s.text.starts_with("DELETE"));
            matches!((index, delete), (Some(i), Some(d)) if i < d)
        };
        let mut calls = 0;
        let shrunk = shrink(&steps, |s| {
            calls += 1;
            fails(s)
        });
        let texts: Vec<&str> = shrunk.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            ["CREATE TABLE t1", "CREATE INDEX i4 ON t1", "DELETE t1"]
        );
        assert!(calls < 40, "{calls} checks");
    }

    #[test]
    fn a_scenario_that_only_fails_whole_is_kept_whole() {
        let steps = vec![step("a", None, &[]), step("b", None, &[])];
        let shrunk = shrink(&steps, |s| s.len() == 2);
        assert_eq!(shrunk, steps);
    }
}
