//! Unified diffs whose hunk headers name the directives they belong to.

use similar::{ChangeTag, DiffOp, DiffTag, TextDiff};
use std::fmt::Write;

/// A line of the new text where a directive starts, and how to name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Landmark {
    /// 0-based line index in the new text.
    pub line: usize,
    /// e.g. `testdata/x.dd:12: peek index=i`
    pub label: String,
}

/// The most directive labels a hunk header names; the rest are counted.
pub const MAX_LABELS: usize = 20;

/// The most lines of a diff shown; the rest are counted.
pub const MAX_LINES: usize = 2000;

/// Lines of context around each change.
pub const CONTEXT: usize = 3;

/// `start,len` as unified diffs print a range (`start` alone when len is 1).
fn range(r: std::ops::Range<usize>) -> String {
    let len = r.end - r.start;
    match len {
        0 => format!("{},0", r.start),
        1 => format!("{}", r.start + 1),
        _ => format!("{},{}", r.start + 1, len),
    }
}

/// The directives (landmarks, sorted by line) that the changes of `ops` fall into.
fn labels<'a>(ops: &[DiffOp], landmarks: &'a [Landmark]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    // Seen landmarks by index: a hunk of 100,000 directives once searched
    // its list of labels for each (quadratic).
    let mut seen = std::collections::HashSet::new();
    for op in ops {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let new = op.new_range();
        // A pure deletion sits after the line before it.
        let lines = if new.is_empty() {
            let l = new.start.saturating_sub(1);
            l..l + 1
        } else {
            new
        };
        for line in lines {
            let i = landmarks.partition_point(|m| m.line <= line);
            if let Some(i) = i.checked_sub(1) {
                if seen.insert(i) {
                    out.push(&landmarks[i].label);
                }
            }
        }
    }
    out
}

/// A unified diff from `old` to `new`, empty if they are equal. Each hunk
/// header is followed by the labels of the directives its changes belong to.
pub fn unified(
    old_name: &str,
    old: &str,
    new_name: &str,
    new: &str,
    landmarks: &[Landmark],
) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::new();
    writeln!(out, "--- {old_name}").unwrap();
    writeln!(out, "+++ {new_name}").unwrap();
    // Lines of the diff written, and those left out past `MAX_LINES`.
    let (mut shown, mut left_out, mut hunks_left_out) = (0usize, 0usize, 0usize);
    for group in diff.grouped_ops(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        if shown >= MAX_LINES {
            hunks_left_out += 1;
            left_out += 1 + group
                .iter()
                .map(|op| diff.iter_changes(op).count())
                .sum::<usize>();
            continue;
        }
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        write!(out, "@@ -{} +{} @@", range(old_range), range(new_range)).unwrap();
        let names = labels(&group, landmarks);
        if !names.is_empty() {
            let more = names.len().saturating_sub(MAX_LABELS);
            let names = &names[..names.len() - more];
            write!(out, " {}", names.join(" | ")).unwrap();
            if more > 0 {
                write!(out, " | and {more} more directives").unwrap();
            }
        }
        out.push('\n');
        shown += 1;
        for op in &group {
            for change in diff.iter_changes(op) {
                if shown >= MAX_LINES {
                    left_out += 1;
                    continue;
                }
                shown += 1;
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                let value = change.value();
                out.push(sign);
                out.push_str(value);
                if !value.ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    if left_out > 0 {
        writeln!(
            out,
            "... {left_out} more lines of this diff left out ({hunks_left_out} more hunks): the report shows the first {MAX_LINES}"
        )
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(v: &[(usize, &str)]) -> Vec<Landmark> {
        v.iter()
            .map(|&(line, label)| Landmark {
                line,
                label: label.into(),
            })
            .collect()
    }

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a", "x\n", "b", "x\n", &[]), "");
    }

    #[test]
    fn hunks_name_their_directives() {
        let old = "tick\n----\nok\n\nquery\nSELECT 1\n----\n1\n\nquery\nSELECT 2\n----\n2\n";
        let new = "tick\n----\nok\n\nquery\nSELECT 1\n----\n7\n\nquery\nSELECT 2\n----\n2\n";
        let m = marks(&[
            (0, "f.dd:1: tick"),
            (4, "f.dd:5: query"),
            (9, "f.dd:10: query"),
        ]);
        assert_eq!(
            unified("golden", old, "replayed", new, &m),
            "--- golden\n+++ replayed\n@@ -5,7 +5,7 @@ f.dd:5: query\n query\n SELECT 1\n ----\n-1\n+7\n \n query\n SELECT 2\n"
        );
    }

    #[test]
    fn deletions_and_several_directives() {
        let old = "a\n----\nx\ny\n\nb\n----\nz\n";
        let new = "a\n----\nx\n\nb\n----\nw\n";
        let m = marks(&[(0, "f.dd:1: a"), (4, "f.dd:6: b")]);
        let d = unified("g", old, "n", new, &m);
        let header = d.lines().nth(2).unwrap();
        assert_eq!(header, "@@ -1,8 +1,7 @@ f.dd:1: a | f.dd:6: b");
        assert!(d.contains("\n-y\n"), "{d}");
        assert!(d.contains("\n-z\n+w\n"), "{d}");
    }

    #[test]
    fn separate_hunks() {
        let mut old = String::new();
        let mut new = String::new();
        for i in 0..20 {
            old.push_str(&format!("l{i}\n"));
            new.push_str(&if i == 2 || i == 17 {
                format!("L{i}\n")
            } else {
                format!("l{i}\n")
            });
        }
        let m = marks(&[(0, "first"), (10, "second")]);
        let d = unified("g", &old, "n", &new, &m);
        let headers: Vec<&str> = d.lines().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(
            headers,
            ["@@ -1,6 +1,6 @@ first", "@@ -15,6 +15,6 @@ second"]
        );
    }

    #[test]
    fn missing_newline_at_end() {
        let d = unified("g", "ok", "n", "ok\n", &[]);
        assert_eq!(
            d,
            "--- g\n+++ n\n@@ -1 +1 @@\n-ok\n\\ No newline at end of file\n+ok\n"
        );
    }

    /// A diff of thousands of changed directives once printed every line
    /// and one hunk header with every label (7.4 MB for 100,000): the
    /// report is bounded and says what it left out.
    #[test]
    fn a_huge_diff_is_bounded_and_says_what_it_left_out() {
        let n = 3000;
        let (mut old, mut new, mut landmarks) = (String::new(), String::new(), Vec::new());
        for i in 0..n {
            landmarks.push(Landmark {
                line: 4 * i,
                label: format!("t.dd:{}: query", 4 * i + 1),
            });
            old.push_str(&format!("query\nSELECT {i}\n----\n{i}\n"));
            new.push_str(&format!("query\nSELECT {i}\n----\n{}\n", i + 1));
        }
        let d = unified("a", &old, "b", &new, &landmarks);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 2 + MAX_LINES + 1, "{}", lines[lines.len() - 1]);
        let header = lines[2];
        assert!(header.starts_with("@@ -1,12000 +1,12000 @@ t.dd:1: query | t.dd:5: query"));
        assert!(
            header.ends_with(" | t.dd:77: query | and 2980 more directives"),
            "{header}"
        );
        // 3,000 changes of two lines each and 9,000 lines of context, in
        // one hunk: its header and 1,999 lines are shown.
        assert_eq!(
            lines[lines.len() - 1],
            "... 13001 more lines of this diff left out (0 more hunks): the report shows the first 2000"
        );
    }
}
