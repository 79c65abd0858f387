//! Shrinking a failing scenario: delta debugging over its steps. Chunks of
//! steps, then single steps, are removed (each with every step that depends
//! on what it creates, so the scenario stays valid), and a candidate is
//! kept only if it still fails the same way. Ends when no single step can
//! go: a 1-minimal scenario. Then fewer rows and smaller values
//! (`shrink_rows`), inside the steps that are left.

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

/// Fewer rows, then smaller values: each `INSERT ... VALUES` loses rows
/// one at a time, then each literal of its rows moves toward 0, and a
/// candidate is kept only if `fails` holds for it. Steps keep what they
/// create and use, so every candidate stays valid.
pub fn shrink_rows(steps: &[Step], mut fails: impl FnMut(&[Step]) -> bool) -> Vec<Step> {
    let mut current = steps.to_vec();
    for i in 0..current.len() {
        for line in 0..current[i].text.lines().count() {
            let Some(mut rows) = rows_of(&current[i].text, line) else {
                continue;
            };
            let mut r = 0;
            while rows.len() > 1 && r < rows.len() {
                let mut fewer = rows.clone();
                fewer.remove(r);
                let candidate = with_rows(&current, i, line, &fewer);
                if fails(&candidate) {
                    (current, rows) = (candidate, fewer);
                } else {
                    r += 1;
                }
            }
            for r in 0..rows.len() {
                for c in 0..rows[r].len() {
                    for smaller in toward_zero(rows[r][c]) {
                        let mut changed = rows.clone();
                        changed[r][c] = smaller;
                        let candidate = with_rows(&current, i, line, &changed);
                        if fails(&candidate) {
                            (current, rows) = (candidate, changed);
                            break;
                        }
                    }
                }
            }
        }
    }
    current
}

/// The rows of line `line` of `text` if it is an `INSERT ... VALUES` of
/// integer tuples.
fn rows_of(text: &str, line: usize) -> Option<Vec<Vec<i64>>> {
    let line = text.lines().nth(line)?;
    let (_, values) = line.strip_prefix("INSERT INTO ")?.split_once(" VALUES ")?;
    let inner = values.strip_prefix('(')?.strip_suffix(')')?;
    let tuple = |t: &str| t.split(", ").map(|n| n.parse().ok()).collect();
    inner.split("), (").map(tuple).collect()
}

/// `steps` with line `line` of step `i` listing `rows` as its values.
fn with_rows(steps: &[Step], i: usize, line: usize, rows: &[Vec<i64>]) -> Vec<Step> {
    let tuple = |row: &Vec<i64>| {
        let items: Vec<String> = row.iter().map(i64::to_string).collect();
        format!("({})", items.join(", "))
    };
    let values: Vec<String> = rows.iter().map(tuple).collect();
    let mut steps = steps.to_vec();
    let lines: Vec<String> = steps[i]
        .text
        .lines()
        .enumerate()
        .map(|(n, l)| match (n == line, l.split_once(" VALUES ")) {
            (true, Some((head, _))) => format!("{head} VALUES {}", values.join(", ")),
            _ => l.to_string(),
        })
        .collect();
    steps[i].text = lines.join("\n") + "\n";
    steps
}

/// Smaller candidates for `n`: 0, then 1 or -1.
fn toward_zero(n: i64) -> Vec<i64> {
    match n.abs() {
        0 => vec![],
        1 => vec![0],
        _ => vec![0, n.signum()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(text: &str, creates: Option<&str>, uses: &[&str]) -> Step {
        Step {
            text: text.to_string(),
            creates: creates.into_iter().map(String::from).collect(),
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

    /// A planted failure: "a row with a negative value is inserted". Rows
    /// and values shrink to the one row `(0, -1)`; other lines stay.
    #[test]
    fn rows_and_values_shrink_toward_one_small_row() {
        let text = "statement\nINSERT INTO t1 VALUES (1, 2), (3, -2), (0, 1)\n----\n";
        let steps = vec![
            step(
                "statement\nCREATE TABLE t1 (k int, v int)\n----\n",
                Some("t1"),
                &[],
            ),
            step(text, None, &["t1"]),
        ];
        let negative = |s: &[Step]| {
            let rows = rows_of(&s[1].text, 1).expect("an insert");
            rows.iter().any(|r| r[1] < 0)
        };
        let shrunk = shrink_rows(&steps, negative);
        assert_eq!(shrunk[0], steps[0]);
        assert_eq!(
            shrunk[1].text,
            "statement\nINSERT INTO t1 VALUES (0, -1)\n----\n"
        );
        assert_eq!(shrunk[1].uses, steps[1].uses);
    }

    #[test]
    fn a_scenario_that_only_fails_whole_is_kept_whole() {
        let steps = vec![step("a", None, &[]), step("b", None, &[])];
        let shrunk = shrink(&steps, |s| s.len() == 2);
        assert_eq!(shrunk, steps);
    }
}
