//! The `.slt` parser: the `sqllogictest` crate's records walked in order,
//! through includes, into [`Block`]s and their [`Layout`], with every record
//! the engine cannot honour refused with its line.

use crate::format::directive::{Command, Condition, Directive, SkipReason};
use crate::format::slt::layout::{head, Layout, Origin, SltBlock, SltRecord, Type};
use crate::format::{text_of, Block, Format, Script, ScriptError};
use sqllogictest::{Control, QueryExpect, Record, SortMode, StatementExpect};
use std::path::Path;

/// Include depth beyond which an include cycle is assumed.
const MAX_INCLUDE_DEPTH: usize = 16;

/// Settings that records change for the records after them.
#[derive(Default)]
struct State {
    sort: Option<SortMode>,
    hash_threshold: usize,
    halted: bool,
    /// `# skip-postgres=<reason>` on the line before the next record.
    skip_postgres: Option<String>,
}

/// Parses an `.slt` file; `path` locates includes, `shown` names it in errors.
pub fn parse(path: &Path, shown: &str, text: &str) -> Result<Script, ScriptError> {
    let records = parse_records(shown, text)?;
    let line_starts = line_starts(text);
    let mut walk = Walk {
        line_starts: &line_starts,
        blocks: Vec::new(),
        layout: Vec::new(),
        state: State::default(),
        last_line: 0,
    };
    let file = File {
        path,
        shown,
        text,
        include: None,
        depth: 0,
    };
    walk.records(file, &records)?;
    Ok(Script {
        text: text.to_string(),
        blocks: walk.blocks,
        format: Format::Sqllogictest(Layout {
            records,
            blocks: walk.layout,
        }),
    })
}

fn parse_records(shown: &str, text: &str) -> Result<Vec<SltRecord>, ScriptError> {
    sqllogictest::parse_with_name::<Type>(text, shown).map_err(|e| ScriptError {
        path: shown.to_string(),
        line: e.location().line() as usize,
        message: e.kind().to_string(),
    })
}

/// Byte offset of each line's start.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Turns records into blocks, file by file through includes.
struct Walk<'a> {
    /// Of the top-level file.
    line_starts: &'a [usize],
    blocks: Vec<Block>,
    layout: Vec<SltBlock>,
    state: State,
    /// The line of the last record with a location, in the current file.
    last_line: u32,
}

/// The file whose records are being walked.
#[derive(Clone, Copy)]
struct File<'a> {
    path: &'a Path,
    shown: &'a str,
    text: &'a str,
    /// The top-level `include` the records come through: its line and index.
    include: Option<(usize, usize)>,
    depth: usize,
}

impl Walk<'_> {
    /// Turns the records of `file` into blocks, in order, until a `halt`.
    fn records(&mut self, file: File, records: &[SltRecord]) -> Result<(), ScriptError> {
        let outer = std::mem::replace(&mut self.last_line, 0);
        for (i, record) in records.iter().enumerate() {
            if self.state.halted {
                break;
            }
            self.record(&file, i, record)?;
        }
        self.last_line = outer;
        Ok(())
    }

    fn record(&mut self, file: &File, index: usize, record: &SltRecord) -> Result<(), ScriptError> {
        let File {
            shown,
            text,
            include,
            ..
        } = *file;
        let error = |line: u32, message: String| ScriptError {
            path: shown.to_string(),
            line: line as usize,
            message,
        };
        let unsupported = |line: u32, what: &str| {
            error(
                line,
                format!("`{what}` is not supported: the reference engine cannot honour it"),
            )
        };
        self.last_line = location(record).unwrap_or(self.last_line);
        let unsupported_here =
            |keyword: &str| unsupported(find_line(text, self.last_line, keyword), keyword);
        let (loc, conditions, command, sort) = match record {
            Record::Statement {
                loc,
                conditions,
                connection,
                sql,
                expected,
                retry,
            } => {
                if let StatementExpect::Count(_) = expected {
                    return Err(unsupported(loc.line(), "statement count"));
                }
                check_plain(connection, retry.is_some()).map_err(|m| error(loc.line(), m))?;
                let command = Command::Statement { sql: sql.clone() };
                (loc, conditions, command, None)
            }
            Record::Query {
                loc,
                conditions,
                connection,
                sql,
                expected,
                retry,
            } => {
                check_plain(connection, retry.is_some()).map_err(|m| error(loc.line(), m))?;
                let sort = match expected {
                    QueryExpect::Results { types, .. } if types.is_empty() => {
                        return Err(error(
                            loc.line(),
                            "`query` needs a type string (`I` integer, `T` text, `B` boolean per column)"
                                .to_string(),
                        ))
                    }
                    QueryExpect::Results { sort_mode, .. } => sort_mode.or(self.state.sort),
                    QueryExpect::Error(_) => None,
                };
                let command = Command::Query {
                    sql: sql.clone(),
                    sort: false,
                };
                (loc, conditions, command, sort)
            }
            Record::Include { loc, filename } => {
                return self.include(file, index, loc.line(), filename)
            }
            Record::HashThreshold { threshold, .. } => {
                self.state.hash_threshold = *threshold as usize;
                return Ok(());
            }
            Record::Control(Control::SortMode(mode)) => {
                self.state.sort = Some(*mode);
                return Ok(());
            }
            Record::Halt { .. } => {
                self.state.halted = true;
                return Ok(());
            }
            Record::Comment(lines) => {
                self.state.skip_postgres = lines
                    .last()
                    .and_then(|l| l.trim().strip_prefix("skip-postgres="))
                    .map(str::to_string);
                return Ok(());
            }
            Record::Newline => {
                self.state.skip_postgres = None;
                return Ok(());
            }
            Record::Condition(_) => return Ok(()),
            Record::Control(_) => return Err(unsupported_here("control")),
            Record::System { loc, .. } => return Err(unsupported(loc.line(), "system")),
            Record::Sleep { loc, .. } => return Err(unsupported(loc.line(), "sleep")),
            Record::Subtest { loc, .. } => return Err(unsupported(loc.line(), "subtest")),
            Record::Let { loc, .. } => return Err(unsupported(loc.line(), "let")),
            Record::Connection(_) => return Err(unsupported_here("connection")),
            _ => return Err(unsupported(self.last_line, "this record")),
        };
        let (line, text, origin) = match include {
            None => (loc.line() as usize, head(record), Origin::Own(index)),
            Some((line, via)) => (
                line,
                format!("{} ({shown}:{})", head(record), loc.line()),
                Origin::Included {
                    file: shown.to_string(),
                    via,
                },
            ),
        };
        self.blocks.push(Block {
            directive: Directive {
                line,
                text,
                command,
                configs: None,
                conditions: conditions
                    .iter()
                    .map(|c| match c {
                        sqllogictest::Condition::OnlyIf { label } => {
                            Condition::OnlyIf(label.clone())
                        }
                        sqllogictest::Condition::SkipIf { label } => {
                            Condition::SkipIf(label.clone())
                        }
                    })
                    .collect(),
                // Or `skipif postgres`, with a comment for a reason.
                skip_postgres: match self.state.skip_postgres.take() {
                    None => None,
                    Some(r) => Some(SkipReason::parse(&r).ok_or_else(|| {
                        error(
                            loc.line() - 1,
                            format!("`skip-postgres={r}` names no reason"),
                        )
                    })?),
                },
            },
            directive_offset: self.line_starts.get(line - 1).copied().unwrap_or(0),
            output_span: 0..0,
            output: Vec::new(),
        });
        self.layout.push(SltBlock {
            record: record.clone(),
            origin,
            sort,
            hash_threshold: self.state.hash_threshold,
        });
        Ok(())
    }

    /// Runs the records of every file `pattern` matches, in path order.
    fn include(
        &mut self,
        file: &File,
        index: usize,
        line: u32,
        pattern: &str,
    ) -> Result<(), ScriptError> {
        let File {
            path, shown, depth, ..
        } = *file;
        let error = |message: String| ScriptError {
            path: shown.to_string(),
            line: line as usize,
            message,
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(error(format!(
                "includes nested more than {MAX_INCLUDE_DEPTH} deep (an include cycle?)"
            )));
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let shown_dir = Path::new(shown).parent().unwrap_or(Path::new(""));
        let full = dir.join(pattern);
        let mut files: Vec<_> = glob::glob(&full.to_string_lossy())
            .map_err(|e| error(format!("include `{pattern}`: {e}")))?
            .collect::<Result<_, _>>()
            .map_err(|e| error(format!("include `{pattern}`: {e}")))?;
        files.sort();
        if files.is_empty() {
            return Err(error(format!("include `{pattern}` matches no file")));
        }
        for found in files {
            let rel = found.strip_prefix(dir).unwrap_or(&found);
            let inc_shown = shown_dir.join(rel).display().to_string();
            let text = std::fs::read(&found)
                .map_err(|e| error(format!("include `{inc_shown}`: cannot read: {e}")))
                .and_then(|bytes| {
                    text_of(bytes).ok_or_else(|| error(format!("include `{inc_shown}`: not UTF-8")))
                })?;
            let records = parse_records(&inc_shown, &text)?;
            let included = File {
                path: &found,
                shown: &inc_shown,
                text: &text,
                include: Some(file.include.unwrap_or((line as usize, index))),
                depth: depth + 1,
            };
            self.records(included, &records)?;
        }
        Ok(())
    }
}

/// Named connections and retries have no meaning for one deterministic engine.
fn check_plain(connection: &sqllogictest::Connection, retry: bool) -> Result<(), String> {
    if *connection != sqllogictest::Connection::Default {
        return Err("named connections are not supported: a run has one engine".to_string());
    }
    if retry {
        return Err("`retry` is not supported: the engine is deterministic".to_string());
    }
    Ok(())
}

/// The line of a record, for those that keep one.
fn location(record: &SltRecord) -> Option<u32> {
    match record {
        Record::Include { loc, .. }
        | Record::Statement { loc, .. }
        | Record::Query { loc, .. }
        | Record::System { loc, .. }
        | Record::Sleep { loc, .. }
        | Record::Subtest { loc, .. }
        | Record::Halt { loc }
        | Record::HashThreshold { loc, .. }
        | Record::Let { loc, .. } => Some(loc.line()),
        _ => None,
    }
}

/// The first line after line `after` that starts with `keyword`: where a
/// record without a location of its own (`control`, `connection`) is written.
fn find_line(text: &str, after: u32, keyword: &str) -> u32 {
    text.lines()
        .enumerate()
        .skip(after as usize)
        .find(|(_, l)| l.split_whitespace().next() == Some(keyword))
        .map_or(after, |(i, _)| i as u32 + 1)
}
