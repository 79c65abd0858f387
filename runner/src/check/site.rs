//! Where a file fails first, and how: the kind of its first failure and
//! the directive it shows at. A file's report carries it (through the
//! child process that checked the file, as JSON) for whatever points a
//! reviewer at the failure without the log: GitHub annotations on the
//! directive's line and the job summary's table (`report/github/`).

use serde::{Deserialize, Serialize};

/// The kind of a file's first failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Every run agreed, but not with the golden.
    GoldenDiff,
    /// There is no golden.
    NoGolden,
    /// Runs printed different outputs.
    Divergence,
    /// A configuration did not prove that it was in effect.
    Witness,
    /// The engine panicked.
    Panic,
    /// The child process checking the file ended without a report.
    Crash,
    /// The child process checking the file ran past `--timeout`.
    TimeOut,
    /// The file could not be parsed (a directive, its header).
    Malformed,
    /// The file or its golden could not be read, or is not UTF-8.
    Unreadable,
    /// `--run` left none of the file's runs.
    NoRun,
    /// An output the datadriven format cannot hold.
    Unwritable,
    /// Records of an included `.slt` file do not hold.
    Unmet,
    /// A rewrite could not write the golden.
    NotWritten,
    /// A golden whose scenario is gone.
    Orphan,
}

impl Kind {
    /// A few words for reports.
    pub fn label(self) -> &'static str {
        match self {
            Kind::GoldenDiff => "golden diff",
            Kind::NoGolden => "no golden",
            Kind::Divergence => "divergence",
            Kind::Witness => "witness",
            Kind::Panic => "panic",
            Kind::Crash => "crash",
            Kind::TimeOut => "time-out",
            Kind::Malformed => "malformed",
            Kind::Unreadable => "unreadable",
            Kind::NoRun => "no run selected",
            Kind::Unwritable => "unwritable output",
            Kind::Unmet => "included records",
            Kind::NotWritten => "golden not written",
            Kind::Orphan => "golden without a scenario",
        }
    }
}

/// Where and how a file fails first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    pub kind: Kind,
    /// The 1-based line of the directive it shows at, in the file the
    /// report names; `None` for a failure of the whole file.
    pub line: Option<usize>,
    /// That directive as reports name it: `testdata/x.dd:12: query`.
    pub directive: Option<String>,
}

impl Site {
    /// A failure of the whole file.
    pub fn file(kind: Kind) -> Site {
        Site {
            kind,
            line: None,
            directive: None,
        }
    }

    /// A failure at the directive on `line`, named `label`.
    pub fn at(kind: Kind, line: usize, label: String) -> Site {
        Site {
            kind,
            line: Some(line),
            directive: Some(label),
        }
    }
}

/// The line an error message about the file shown as `shown` names, when
/// it has the form every parse error has, `shown:line: message`.
pub fn line_of_error(message: &str, shown: &str) -> Option<usize> {
    let rest = message.strip_prefix(shown)?.strip_prefix(':')?;
    let (digits, _) = rest.split_once(':')?;
    digits.parse().ok().filter(|&line| line > 0)
}

/// The block at which `transcript` first leaves `golden`: the one whose
/// lines hold the first line where the two texts differ (each block starts
/// at its `directive_lines` entry, 0-based, in `transcript`). `None` if
/// they are equal or differ before the first directive.
pub fn first_differing_block(
    golden: &str,
    transcript: &str,
    directive_lines: &[usize],
) -> Option<usize> {
    let mut old = golden.split_inclusive('\n');
    let mut new = transcript.split_inclusive('\n');
    let mut line = 0;
    loop {
        match (old.next(), new.next()) {
            (None, None) => return None,
            (a, b) if a == b => line += 1,
            _ => break,
        }
    }
    directive_lines
        .partition_point(|&start| start <= line)
        .checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_of_a_parse_error_of_the_file_itself() {
        let shown = "testdata/a b:c.dd";
        assert_eq!(
            line_of_error("testdata/a b:c.dd:3: unknown directive", shown),
            Some(3)
        );
        assert_eq!(line_of_error("testdata/a b:c.dd: not UTF-8", shown), None);
        // An error in another file (an included one) is not at a line of this one.
        assert_eq!(line_of_error("testdata/inc.slt:3: bad", shown), None);
        assert_eq!(line_of_error("testdata/a b:c.dd:0: x", shown), None);
    }

    #[test]
    fn the_first_difference_belongs_to_the_directive_above_it() {
        let golden = "# c\n\nquery\nSELECT 1\n----\n1\n\nquery\nSELECT 2\n----\n2\n";
        let starts = [2, 7];
        assert_eq!(first_differing_block(golden, golden, &starts), None);
        let second = golden.replace("\n2\n", "\n3\n");
        assert_eq!(first_differing_block(golden, &second, &starts), Some(1));
        let first = golden.replace("\n1\n", "\n7\n");
        assert_eq!(first_differing_block(golden, &first, &starts), Some(0));
        // A golden with more lines at the end: the last directive.
        let longer = format!("{golden}9\n");
        assert_eq!(first_differing_block(&longer, golden, &starts), Some(1));
        // A missing newline at the end is a difference too.
        let unended = golden.trim_end();
        assert_eq!(first_differing_block(unended, golden, &starts), Some(1));
        // Before the first directive: the whole file.
        let comment = golden.replace("# c", "# d");
        assert_eq!(first_differing_block(golden, &comment, &starts), None);
    }
}
