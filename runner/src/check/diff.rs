//! Unified diffs whose hunk headers name the directives they belong to.
//!
//! A minimal diff (Myers) costs time in the product of the changed
//! region's length and the number of edits, so a golden with 100,000
//! changed directives once took 33.7 s to report. Past [`EXACT_LINES`]
//! changed lines the diff is aligned the cheap way ([`resync`]): in time
//! linear in the lines, the same bytes every run, and not always minimal.
//! No deadline is used, since one would make the report depend on the
//! machine's speed.

use similar::{capture_diff_slices, group_diff_ops, Algorithm, DiffOp, DiffTag};
use std::collections::HashMap;
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

/// The most lines, old and new together, in the changed region (what is
/// left after the common first and last lines) that get a minimal diff.
pub const EXACT_LINES: usize = 20_000;

/// How far ahead [`resync`] looks for the next lines both texts share.
pub const RESYNC_WINDOW: usize = 64;

/// How many lines in a row must agree for [`resync`] to take them as
/// the texts being in step again.
const RESYNC_RUN: usize = 3;

/// The edit script from `old` to `new`, as equal, delete and insert runs
/// in order, and whether it is minimal.
fn edits(old: &[&str], new: &[&str]) -> (Vec<DiffOp>, bool) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let changed = old.len() + new.len() - 2 * (prefix + suffix);
    if changed <= EXACT_LINES {
        return (capture_diff_slices(Algorithm::Myers, old, new), true);
    }
    let mut ops = Vec::new();
    push(&mut ops, DiffTag::Equal, 0, 0, prefix, prefix);
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    resync(old, new, prefix..old_end, prefix..new_end, &mut ops);
    push(&mut ops, DiffTag::Equal, old_end, new_end, suffix, suffix);
    (ops, false)
}

/// Appends a run to `ops`, merged into the last one when it has the same
/// tag and continues it.
fn push(
    ops: &mut Vec<DiffOp>,
    tag: DiffTag,
    old: usize,
    new: usize,
    old_len: usize,
    new_len: usize,
) {
    if old_len == 0 && new_len == 0 {
        return;
    }
    if let Some(last) = ops.last_mut() {
        match (last, tag) {
            (DiffOp::Equal { len, .. }, DiffTag::Equal) => return *len += old_len,
            (DiffOp::Delete { old_len: l, .. }, DiffTag::Delete) => return *l += old_len,
            (DiffOp::Insert { new_len: l, .. }, DiffTag::Insert) => return *l += new_len,
            _ => {}
        }
    }
    ops.push(match tag {
        DiffTag::Equal => DiffOp::Equal {
            old_index: old,
            new_index: new,
            len: old_len,
        },
        DiffTag::Delete => DiffOp::Delete {
            old_index: old,
            old_len,
            new_index: new,
        },
        DiffTag::Insert => DiffOp::Insert {
            old_index: old,
            new_index: new,
            new_len,
        },
        DiffTag::Replace => unreachable!("runs are equal, delete or insert"),
    });
}

/// Aligns `old[o]` with `new[n]` in one pass: equal lines are kept; at a
/// difference, the next place within [`RESYNC_WINDOW`] lines of each where
/// [`RESYNC_RUN`] lines agree (the one fewest lines away, and of those
/// the one deleting fewest) decides what was deleted and inserted; with none, one
/// line of each is replaced and the pass moves on. Each step looks at
/// most a window's lines, so the whole is linear in the lines.
fn resync(
    old: &[&str],
    new: &[&str],
    o: std::ops::Range<usize>,
    n: std::ops::Range<usize>,
    ops: &mut Vec<DiffOp>,
) {
    let (mut i, mut j) = (o.start, n.start);
    let agree = |a: usize, b: usize| {
        (0..RESYNC_RUN).all(|k| match (a + k < o.end, b + k < n.end) {
            (true, true) => old[a + k] == new[b + k],
            (false, false) => true,
            _ => false,
        })
    };
    while i < o.end && j < n.end {
        if old[i] == new[j] {
            push(ops, DiffTag::Equal, i, j, 1, 1);
            (i, j) = (i + 1, j + 1);
            continue;
        }
        let (old_window, new_window) = (
            &old[i..o.end.min(i + RESYNC_WINDOW)],
            &new[j..n.end.min(j + RESYNC_WINDOW)],
        );
        // Each line of one window against its first place in the other.
        let mut best: Option<(usize, usize)> = None;
        let mut consider = |x: usize, y: usize| {
            let nearer = best.is_none_or(|(bx, by)| (x + y, x) < (bx + by, bx));
            if (x, y) != (0, 0) && nearer && agree(i + x, j + y) {
                best = Some((x, y));
            }
        };
        let in_new = first_places(new_window);
        for (x, line) in old_window.iter().enumerate() {
            if let Some(&y) = in_new.get(line) {
                consider(x, y);
            }
        }
        let in_old = first_places(old_window);
        for (y, line) in new_window.iter().enumerate() {
            if let Some(&x) = in_old.get(line) {
                consider(x, y);
            }
        }
        let (x, y) = best.unwrap_or((1, 1));
        push(ops, DiffTag::Delete, i, j, x, 0);
        push(ops, DiffTag::Insert, i + x, j, 0, y);
        (i, j) = (i + x, j + y);
    }
    push(ops, DiffTag::Delete, i, j, o.end - i, 0);
    push(ops, DiffTag::Insert, o.end, j, 0, n.end - j);
}

/// How many lines of the diff `op` prints: its old lines once if they are
/// equal, else its old and its new lines.
fn printed(op: &DiffOp) -> usize {
    match op.tag() {
        DiffTag::Equal => op.old_range().len(),
        _ => op.old_range().len() + op.new_range().len(),
    }
}

/// Each line of `window` with the index of its first place there.
fn first_places<'a>(window: &[&'a str]) -> HashMap<&'a str, usize> {
    let mut first = HashMap::with_capacity(window.len());
    for (k, line) in window.iter().enumerate() {
        first.entry(*line).or_insert(k);
    }
    first
}

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
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let new: Vec<&str> = new.split_inclusive('\n').collect();
    let (ops, minimal) = edits(&old, &new);
    let mut out = String::new();
    writeln!(out, "--- {old_name}").unwrap();
    writeln!(out, "+++ {new_name}").unwrap();
    if !minimal {
        writeln!(
            out,
            "(more than {EXACT_LINES} lines changed: aligned in one pass, so this diff may not be the shortest)"
        )
        .unwrap();
    }
    // Lines of the diff written, and those left out past `MAX_LINES`.
    let (mut shown, mut left_out, mut hunks_left_out) = (0usize, 0usize, 0usize);
    for group in group_diff_ops(ops, CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        if shown >= MAX_LINES {
            hunks_left_out += 1;
            left_out += 1 + group.iter().map(printed).sum::<usize>();
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
            let (tag, olds, news) = op.as_tag_tuple();
            let lines = match tag {
                DiffTag::Equal => olds.map(|k| (' ', old[k])).collect::<Vec<_>>(),
                _ => olds
                    .map(|k| ('-', old[k]))
                    .chain(news.map(|k| ('+', new[k])))
                    .collect(),
            };
            for (sign, value) in lines {
                if shown >= MAX_LINES {
                    left_out += 1;
                    continue;
                }
                shown += 1;
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
        assert_eq!(lines.len(), 3 + MAX_LINES + 1, "{}", lines[lines.len() - 1]);
        // 24,000 changed lines are past `EXACT_LINES`: the report says the
        // diff was aligned the cheap way.
        assert_eq!(
            lines[2],
            "(more than 20000 lines changed: aligned in one pass, so this diff may not be the shortest)"
        );
        let header = lines[3];
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

    /// Applies `ops` to `old`, checking that each equal run is equal.
    fn apply<'a>(ops: &[DiffOp], old: &[&'a str], new: &[&'a str]) -> Vec<&'a str> {
        let (mut out, mut at_old, mut at_new) = (Vec::new(), 0, 0);
        for op in ops {
            let (tag, olds, news) = op.as_tag_tuple();
            assert_eq!((olds.start, news.start), (at_old, at_new), "{ops:?}");
            if tag == DiffTag::Equal {
                assert_eq!(old[olds.clone()], new[news.clone()], "{op:?}");
            }
            out.extend(&new[news.clone()]);
            (at_old, at_new) = (olds.end, news.end);
        }
        assert_eq!((at_old, at_new), (old.len(), new.len()), "{ops:?}");
        out
    }

    /// Random texts of few distinct lines (many repeats, as a golden's
    /// `----` and blank lines are), edited at random.
    fn texts(seed: u64) -> (Vec<&'static str>, Vec<&'static str>) {
        const LINES: [&str; 6] = ["----\n", "\n", "query\n", "1\n", "2\n", "3\n"];
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut draw = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n) as usize
        };
        let old: Vec<&str> = (0..draw(300)).map(|_| LINES[draw(6)]).collect();
        let mut new = Vec::new();
        for line in &old {
            match draw(10) {
                0 => {}
                1 => new.extend([LINES[draw(6)], line]),
                2 => new.push(LINES[draw(6)]),
                _ => new.push(line),
            }
        }
        (old, new)
    }

    /// The one-pass alignment is an edit script from the old text to the
    /// new one whatever the texts, and keeps every line that did not
    /// change when each change is in place.
    #[test]
    fn one_pass_alignment_turns_old_into_new() {
        for seed in 0..500 {
            let (old, new) = texts(seed);
            let mut ops = Vec::new();
            resync(&old, &new, 0..old.len(), 0..new.len(), &mut ops);
            assert_eq!(apply(&ops, &old, &new), new, "seed {seed}");
        }
        let old: Vec<&str> = (0..1000)
            .map(|i| if i % 4 == 3 { "1\n" } else { "q\n" })
            .collect();
        let new: Vec<&str> = (0..1000)
            .map(|i| if i % 4 == 3 { "2\n" } else { "q\n" })
            .collect();
        let mut ops = Vec::new();
        resync(&old, &new, 0..old.len(), 0..new.len(), &mut ops);
        let kept: usize = ops
            .iter()
            .filter(|op| op.tag() == DiffTag::Equal)
            .map(printed)
            .sum();
        assert_eq!(kept, 750, "{ops:?}");
    }

    /// Past `EXACT_LINES` the cheap way is taken, below it the minimal one;
    /// both are edit scripts of the whole texts.
    #[test]
    fn the_size_of_the_change_chooses_the_way() {
        for (n, minimal) in [(EXACT_LINES / 2, true), (EXACT_LINES / 2 + 1, false)] {
            let old: Vec<String> = (0..n).map(|i| format!("{i}\n")).collect();
            let new: Vec<String> = (0..n).map(|i| format!("{}\n", i + 1_000_000)).collect();
            let (old, new): (Vec<&str>, Vec<&str>) = (
                old.iter().map(String::as_str).collect(),
                new.iter().map(String::as_str).collect(),
            );
            let (ops, exact) = edits(&old, &new);
            assert_eq!(exact, minimal, "{n} lines each");
            assert_eq!(apply(&ops, &old, &new), new);
        }
    }
}
