//! Materialize's sqllogictest dialect, read by the rules of its own parser
//! (`src/sqllogictest/src/parser.rs`, read for the facts; this is a
//! rewrite, not a copy): a record's first line is cut at the first `#`;
//! SQL runs to the first blank line (a query's to its `----`); expected
//! output to the next blank line (or `EOF` with `multiline`), column names
//! first with `colnames`, `N values hashing to MD5` anywhere in it making
//! it a hash; `mode cockroach` splits rows into columns and sorts them as
//! it reads; `skipif postgresql` drops the next record and `onlyif <x>`
//! drops it unless `x` is `postgresql` (Materialize follows PostgreSQL's
//! side of these files); `subtest`, `user` and `kv-batch-size` lines are
//! ignored; `halt` ends the file. Anything else is an error naming the line.

use crate::format::mz::layout::{
    ExpectedError, Layout, Mode, Output, Record, Results, Sort, StatementExpect, Type, Written,
};
use regex::Regex;
use std::sync::LazyLock;

/// Where a query's SQL ends: its `----` line.
static QUERY_OUTPUT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\r?\n----").unwrap());
/// A blank line, or the end of the text.
static DOUBLE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\n|\r\n|$)(\n|\r\n|$)").unwrap());
/// The end of a `multiline` output.
static EOF_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\n|\r\n)EOF(\n|\r\n)").unwrap());
/// A record's first line, up to a comment or the end of the line.
static FIRST_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new("(#[^\n]*)?\r?(\n|$)").unwrap());
static LINE_END: LazyLock<Regex> = LazyLock::new(|| Regex::new("\r?(\n|$)").unwrap());
static HASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\S+) values hashing to (\S+)").unwrap());
static ERROR_HEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("(statement|query) error( pgcode [a-zA-Z0-9]{5})? ?").unwrap());

/// A malformed file: the 1-based line and what is wrong.
pub type ParseError = (usize, String);

/// Parses a whole file; `Err` names the line of the first malformed record.
pub fn parse(text: &str) -> Result<Layout, ParseError> {
    let mut parser = Parser {
        text,
        at: 0,
        line: 1,
        mode: Mode::Standard,
    };
    let mut records = Vec::new();
    while let Some(record) = parser.record()? {
        records.push(record);
    }
    Ok(Layout {
        records,
        blocks: Vec::new(),
    })
}

struct Parser<'a> {
    text: &'a str,
    /// Byte offset of what is left to read.
    at: usize,
    /// 1-based line of `at`.
    line: usize,
    mode: Mode,
}

impl<'a> Parser<'a> {
    fn error<T>(&self, line: usize, message: String) -> Result<T, ParseError> {
        Err((line, message))
    }

    /// The text before the next match of `re` (absolute byte range), and
    /// moves past the match.
    fn split_at(&mut self, re: &Regex, line: usize) -> Result<(usize, usize), ParseError> {
        let rest = &self.text[self.at..];
        let Some(found) = re.find(rest) else {
            let what = match re.as_str() {
                r"\r?\n----" => "a `----` line",
                _ => "the end of the record",
            };
            return self.error(line, format!("no {what} after this record's first line"));
        };
        let range = (self.at, self.at + found.start());
        self.line += rest[..found.end()].matches('\n').count();
        self.at += found.end();
        Ok(range)
    }

    /// The next record; `None` at `halt` or the end of the text.
    fn record(&mut self) -> Result<Option<Written>, ParseError> {
        let mut marker: Option<String> = None;
        loop {
            if self.at == self.text.len() {
                return Ok(None);
            }
            let line = self.line;
            let raw = self.text[self.at..]
                .lines()
                .next()
                .unwrap_or_default()
                .trim();
            let (start, end) = self.split_at(&FIRST_LINE, line)?;
            let first = self.text[start..end].trim();
            if first.is_empty() {
                let comment = raw.strip_prefix('#').map(str::trim);
                marker = comment
                    .and_then(|c| c.strip_prefix("skip-postgres="))
                    .map(str::to_string);
                continue;
            }
            let mut words = first.split(' ');
            let record = match words.next().unwrap_or_default() {
                "statement" => self.statement(words, first, line)?,
                "query" => self.query(words, first, line)?,
                "simple" => self.simple(words, line)?,
                "hash-threshold" => match words.next().map(str::parse::<u64>) {
                    Some(Ok(_)) => Record::HashThreshold,
                    Some(Err(e)) => return self.error(line, format!("invalid threshold ({e})")),
                    None => return self.error(line, "missing threshold".into()),
                },
                word @ ("skipif" | "onlyif") => {
                    let Some(label) = words.next() else {
                        return self.error(line, format!("`{word}` needs a label"));
                    };
                    // Materialize follows the PostgreSQL side of these files.
                    if (word == "skipif") == (label == "postgresql") {
                        self.record()?;
                    }
                    continue;
                }
                "halt" => return Ok(None),
                "subtest" | "user" | "kv-batch-size" => continue,
                "mode" => {
                    self.mode = match words.next() {
                        Some("cockroach") => Mode::Cockroach,
                        Some("standard" | "sqlite") => Mode::Standard,
                        other => return self.error(line, format!("unknown parse mode: {other:?}")),
                    };
                    continue;
                }
                "copy" => match (words.next(), words.next()) {
                    (Some(table), Some(path)) => Record::Copy {
                        table: table.to_string(),
                        path: path.to_string(),
                    },
                    _ => return self.error(line, "`copy` needs a table and a TSV path".into()),
                },
                "reset-server" => Record::ResetServer,
                other => return self.error(line, format!("unexpected start of record: `{other}`")),
            };
            return Ok(Some(Written {
                line,
                head: first.to_string(),
                record,
                skip_postgres: marker,
            }));
        }
    }

    /// The expected error of a first line: the rest after `statement
    /// error [pgcode XXXXX] `, compiled if Rust's `regex` can (a pattern it
    /// cannot compile is the record's problem, not the file's: see
    /// [`ExpectedError::regex`]).
    fn expected_error(&self, first: &str) -> ExpectedError {
        let at = ERROR_HEAD.find(first).map_or(first.len(), |m| m.end());
        let pattern = &first[at..];
        let start = pattern.as_ptr() as usize - self.text.as_ptr() as usize;
        ExpectedError {
            pattern: pattern.to_string(),
            regex: Regex::new(pattern).ok(),
            span: start..start + pattern.len(),
        }
    }

    fn sql(&self, (start, end): (usize, usize)) -> String {
        self.text[start..end].to_string()
    }

    fn statement<'w>(
        &mut self,
        mut words: impl Iterator<Item = &'w str>,
        first: &str,
        line: usize,
    ) -> Result<Record, ParseError> {
        let expect = match words.next() {
            Some("count") => match words.next().map(str::parse::<u64>) {
                Some(Ok(n)) => StatementExpect::Count(n),
                _ => return self.error(line, "`statement count` needs a row count".into()),
            },
            Some("ok" | "OK") => StatementExpect::Ok,
            Some("error") => StatementExpect::Error(self.expected_error(first)),
            _ => return self.error(line, format!("invalid statement disposition: {first}")),
        };
        let sql = self.split_at(&DOUBLE_LINE, line)?;
        Ok(Record::Statement {
            sql: self.sql(sql),
            expect,
        })
    }

    fn query<'w>(
        &mut self,
        words: impl Iterator<Item = &'w str>,
        first: &str,
        line: usize,
    ) -> Result<Record, ParseError> {
        let mut words = words.peekable();
        if words.peek() == Some(&"error") {
            let expected = self.expected_error(first);
            let sql = self.split_at(&DOUBLE_LINE, line)?;
            return Ok(Record::Query {
                sql: self.sql(sql),
                expect: Err(expected),
            });
        }
        let types = match words.next() {
            None => Vec::new(),
            Some(letters) => types(letters).map_err(|m| (line, m))?,
        };
        let (mut sort, mut names, mut multiline) = (Sort::No, false, false);
        if let Some(options) = words.next() {
            for option in options.split(',') {
                match option {
                    "nosort" => sort = Sort::No,
                    "rowsort" => sort = Sort::Row,
                    "valuesort" => sort = Sort::Value,
                    "colnames" => names = true,
                    "multiline" => multiline = true,
                    // Its arguments are commas too: Materialize stops here.
                    other if other.starts_with("partialsort") => {
                        sort = Sort::Row;
                        break;
                    }
                    other => {
                        return self.error(line, format!("unrecognized option `{other}`"));
                    }
                }
            }
        }
        if multiline && (names || sort != Sort::No) {
            return self.error(
                line,
                "`multiline` is incompatible with all other options".into(),
            );
        }
        let sql = self.split_at(&QUERY_OUTPUT, line)?;
        let end = if multiline { &*EOF_LINE } else { &*DOUBLE_LINE };
        let (mut start, stop) = self.split_at(end, line)?;
        match LINE_END.find(&self.text[start..stop]) {
            Some(m) if m.start() == 0 => start += m.end(),
            _ if start == stop => {}
            _ => return self.error(line, "text right after `----` on its line".into()),
        }
        let span = start..stop;
        let mut body = &self.text[start..stop];
        let columns = match names {
            false => None,
            true => {
                let (names, rest) = match LINE_END.find(body) {
                    Some(m) => (&body[..m.start()], &body[m.end()..]),
                    None => (body, ""),
                };
                body = rest;
                let names = names.split(' ').filter(|s| !s.is_empty());
                Some(names.map(|s| s.replace('␠', " ")).collect())
            }
        };
        let output = self.output(body, &types, sort, multiline, line)?;
        Ok(Record::Query {
            sql: self.sql(sql),
            expect: Ok(Results {
                types,
                sort,
                multiline,
                columns,
                mode: self.mode,
                output,
                span,
            }),
        })
    }

    /// The expected values of a query, as Materialize compares them.
    fn output(
        &self,
        body: &str,
        types: &[Type],
        sort: Sort,
        multiline: bool,
        line: usize,
    ) -> Result<Output, ParseError> {
        if let Some(c) = HASH.captures(body) {
            let values = c[1]
                .parse::<usize>()
                .map_err(|e| (line, format!("invalid hash count: {e}")))?;
            return Ok(Output::Hashed {
                values,
                md5: c[2].to_string(),
            });
        }
        if multiline {
            return Ok(Output::Values(vec![body.to_string()]));
        }
        if body.starts_with(['\r', '\n']) {
            return Ok(Output::Values(Vec::new()));
        }
        let lines = body.lines();
        let mut values: Vec<String> = match self.mode {
            Mode::Standard => lines.map(|l| l.replace('⏎', "\n")).collect(),
            Mode::Cockroach => {
                let mut rows: Vec<Vec<String>> = Vec::new();
                for l in lines {
                    let columns = split_columns(l, types.len());
                    if sort != Sort::No && columns.len() != types.len() {
                        return self.error(
                            line,
                            format!(
                                "a row of {} column(s) where the types declare {}",
                                columns.len(),
                                types.len()
                            ),
                        );
                    }
                    let unescape = |c: &str| c.replace('␠', " ").replace('⏎', "\n");
                    rows.push(columns.into_iter().map(unescape).collect());
                }
                if sort == Sort::Row {
                    rows.sort();
                }
                rows.into_iter().flatten().collect()
            }
        };
        if sort == Sort::Value {
            values.sort();
        }
        Ok(Output::Values(values))
    }

    fn simple<'w>(
        &mut self,
        mut words: impl Iterator<Item = &'w str>,
        line: usize,
    ) -> Result<Record, ParseError> {
        let (mut conn, mut user, mut password) = (None, None, None);
        let (mut sort, mut multiline) = (Sort::No, false);
        if let Some(options) = words.next() {
            for option in options.split(',') {
                let value = |prefix: &str| option.strip_prefix(prefix).map(str::to_string);
                if let Some(v) = value("conn=") {
                    conn = Some(v);
                } else if let Some(v) = value("user=") {
                    user = Some(v);
                } else if let Some(v) = value("password=") {
                    password = Some(v);
                } else if option == "rowsort" {
                    sort = Sort::Row;
                } else if option == "multiline" {
                    multiline = true;
                } else {
                    return self.error(line, format!("unrecognized option `{option}`"));
                }
            }
        }
        if user.is_some() && conn.is_none() {
            return self.error(line, "cannot set user without also setting conn".into());
        }
        if password.is_some() && user.is_none() {
            return self.error(line, "cannot set password without also setting user".into());
        }
        let sql = self.split_at(&QUERY_OUTPUT, line)?;
        let end = if multiline { &*EOF_LINE } else { &*DOUBLE_LINE };
        let (start, stop) = self.split_at(end, line)?;
        let body = self.text[start..stop].trim_start();
        let span_start = stop - body.len();
        let output = if multiline {
            let mut output = vec![body.to_string()];
            let (s, e) = self.split_at(&DOUBLE_LINE, line)?;
            output.extend(self.text[s..e].trim_start().lines().map(str::to_string));
            output
        } else {
            let mut lines: Vec<String> = body.lines().map(str::to_string).collect();
            if self.mode == Mode::Cockroach && sort == Sort::Row {
                lines.sort();
            }
            lines
        };
        Ok(Record::Simple {
            sql: self.sql(sql),
            conn,
            user,
            password,
            sort,
            output,
            multiline,
            span: span_start..stop,
        })
    }
}

fn types(letters: &str) -> Result<Vec<Type>, String> {
    letters
        .chars()
        .map(|c| match c {
            'T' => Ok(Type::Text),
            'I' => Ok(Type::Integer),
            'R' => Ok(Type::Real),
            'B' => Ok(Type::Bool),
            'O' => Ok(Type::Oid),
            _ => Err(format!("unexpected type letter `{c}` in `{letters}`")),
        })
        .collect()
}

/// A cockroach-mode row's columns: the trimmed line for one column, else
/// its whitespace-separated words.
fn split_columns(line: &str, columns: usize) -> Vec<&str> {
    match columns {
        1 => vec![line.trim()],
        _ => line.split_whitespace().collect(),
    }
}

#[cfg(test)]
mod tests;
