//! A parser of the CockroachDB datadriven format, our own.
//!
//! ```text
//! # comment
//! directive k=v k=(a,b) flag
//! input lines
//! ----
//! output lines
//!
//! directive
//! ----
//! ----
//! output with
//!
//! blank lines
//! ----
//! ----
//! ```
//!
//! A single-form output ends at the first blank line or the end of the file;
//! a doubled `----` `----` opens an output that may contain blank lines and is
//! closed by another `----` `----` line pair, which must be followed by a
//! blank line or the end of the file. `#` comments and blank lines between
//! directives are kept verbatim (as all bytes outside output blocks are).
//! Every malformed construct is a [`ScriptError`] naming its line.

use crate::format::directive::{Directive, RawArg};
use crate::format::{Block, Format, Script, ScriptError};

/// The separator between a directive's input and its output.
pub const SEPARATOR: &str = "----";

/// One line of the file: its byte range and its text without the line ending.
struct Line<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for chunk in text.split_inclusive('\n') {
        let end = start + chunk.len();
        let body = chunk.strip_suffix('\n').unwrap_or(chunk);
        let body = body.strip_suffix('\r').unwrap_or(body);
        out.push(Line {
            start,
            end,
            text: body,
        });
        start = end;
    }
    out
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Parses a scenario file; `path` is only used in errors.
pub fn parse(path: &str, text: &str) -> Result<Script, ScriptError> {
    let error = |line: usize, message: String| ScriptError {
        path: path.to_string(),
        line,
        message,
    };
    let lines = lines(text);
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if is_blank(line.text) || line.text.trim_start().starts_with('#') {
            i += 1;
            continue;
        }
        if line.text == SEPARATOR {
            return Err(error(
                i + 1,
                "`----` without a directive before it".to_string(),
            ));
        }
        let directive_line = i + 1;
        let (name, args) = tokenize(line.text).map_err(|m| error(directive_line, m))?;

        // Input: every line up to the separator.
        let mut j = i + 1;
        let mut input = Vec::new();
        loop {
            match lines.get(j) {
                None => {
                    return Err(error(
                        directive_line,
                        format!("`{name}` is missing its `----` line (reached the end of the file)"),
                    ))
                }
                Some(l) if l.text == SEPARATOR => break,
                Some(l) if is_blank(l.text) => {
                    return Err(error(
                        directive_line,
                        format!(
                            "`{name}` is missing its `----` line (blank line at line {} ends its input)",
                            j + 1
                        ),
                    ))
                }
                Some(l) => input.push(l.text.to_string()),
            }
            j += 1;
        }
        let separator = j;

        // Output.
        let mut output = Vec::new();
        let mut k = separator + 1;
        if lines.get(k).is_some_and(|l| l.text == SEPARATOR) {
            k += 1;
            loop {
                match lines.get(k) {
                    None => {
                        return Err(error(
                            separator + 1,
                            "unterminated doubled `----` block (no closing `----` `----` before the end of the file)"
                                .to_string(),
                        ))
                    }
                    Some(l)
                        if l.text == SEPARATOR
                            && lines.get(k + 1).is_some_and(|n| n.text == SEPARATOR) =>
                    {
                        k += 2;
                        break;
                    }
                    Some(l) => output.push(l.text.to_string()),
                }
                k += 1;
            }
            if let Some(l) = lines.get(k) {
                if !is_blank(l.text) {
                    return Err(error(
                        k + 1,
                        "a doubled `----` block must be followed by a blank line or the end of the file"
                            .to_string(),
                    ));
                }
            }
        } else {
            while let Some(l) = lines.get(k) {
                if is_blank(l.text) {
                    break;
                }
                if l.text == SEPARATOR {
                    return Err(error(
                        k + 1,
                        format!(
                            "`----` inside the output of the directive at line {directive_line} (is a blank line missing after its output?)"
                        ),
                    ));
                }
                output.push(l.text.to_string());
                k += 1;
            }
        }
        let span_end = if k > 0 { lines[k - 1].end } else { 0 };

        let directive = Directive::validate(directive_line, line.text, &name, args, &input)
            .map_err(|m| error(directive_line, m))?;
        blocks.push(Block {
            directive,
            directive_offset: line.start,
            output_span: lines[separator].start..span_end,
            output,
        });
        i = k;
    }
    Ok(Script {
        text: text.to_string(),
        blocks,
        format: Format::Datadriven,
    })
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
}

/// Splits a directive line into its name and arguments.
pub fn tokenize(line: &str) -> Result<(String, Vec<RawArg>), String> {
    let mut rest = line.trim();
    let name_len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
    if name_len == 0 {
        return Err(format!(
            "expected a directive name at the start of `{rest}`"
        ));
    }
    let name = rest[..name_len].to_string();
    rest = &rest[name_len..];
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return Err(format!(
            "unexpected `{}` after directive name `{name}`",
            rest.chars().next().unwrap_or_default()
        ));
    }
    let mut args = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let key_len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
        if key_len == 0 {
            return Err(format!(
                "expected an argument name at `{rest}` (arguments are `key`, `key=value` or `key=(a,b)`)"
            ));
        }
        let key = rest[..key_len].to_string();
        rest = &rest[key_len..];
        let values = if let Some(after) = rest.strip_prefix('=') {
            if let Some(list) = after.strip_prefix('(') {
                let close = list
                    .find(')')
                    .ok_or_else(|| format!("argument `{key}`: `(` without a closing `)`"))?;
                let items: Vec<String> = list[..close]
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .collect();
                if items.iter().any(|s| s.is_empty()) {
                    return Err(format!(
                        "argument `{key}`: empty value in `({})`",
                        &list[..close]
                    ));
                }
                rest = &list[close + 1..];
                Some(items)
            } else {
                let len = after
                    .find(|c: char| c.is_whitespace())
                    .unwrap_or(after.len());
                let value = &after[..len];
                if value.is_empty() {
                    return Err(format!("argument `{key}` has an empty value"));
                }
                if value.contains(['(', ')', '=']) {
                    return Err(format!("argument `{key}`: malformed value `{value}`"));
                }
                rest = &after[len..];
                Some(vec![value.to_string()])
            }
        } else {
            None
        };
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            return Err(format!(
                "unexpected `{}` after argument `{key}`",
                rest.chars().next().unwrap_or_default()
            ));
        }
        args.push(RawArg { key, values });
    }
    Ok((name, args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::directive::{Command, SkipReason};
    use engine::Role;

    fn ok(text: &str) -> Script {
        parse("f.dd", text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn commands(text: &str) -> Vec<Command> {
        ok(text)
            .blocks
            .into_iter()
            .map(|b| b.directive.command)
            .collect()
    }

    /// The error as printed: `f.dd:line: message`.
    fn err(text: &str) -> String {
        parse("f.dd", text).unwrap_err().to_string()
    }

    #[test]
    fn every_directive() {
        let text = "\
# comment

statement
CREATE TABLE t (a int);
INSERT INTO t VALUES (1)
----

query nosort
SELECT a FROM t
----

query
SELECT 1
----

peek index=i
----

peek index=i as-of=3 name=p
----

await name=p
----

hold on=t at=2 name=h
----

release name=h
----

allow-compaction on=i since=5
----

tick
----

pause runtime=interactive worker=0
----

resume runtime=maintenance
----

step runtime=interactive worker=1 configs=(solo,shared)
----
";
        assert_eq!(
            commands(text),
            [
                Command::Statement {
                    sql: "CREATE TABLE t (a int);\nINSERT INTO t VALUES (1)".into()
                },
                Command::Query {
                    sql: "SELECT a FROM t".into(),
                    sort: false
                },
                Command::Query {
                    sql: "SELECT 1".into(),
                    sort: true
                },
                Command::Peek {
                    index: "i".into(),
                    as_of: None
                },
                Command::IssuePeek {
                    index: "i".into(),
                    as_of: Some(3),
                    name: "p".into()
                },
                Command::Await { name: "p".into() },
                Command::Hold {
                    on: "t".into(),
                    at: 2,
                    name: "h".into()
                },
                Command::Release { name: "h".into() },
                Command::AllowCompaction {
                    on: "i".into(),
                    since: 5
                },
                Command::Tick,
                Command::Pause {
                    role: Role::Interactive,
                    worker: Some(0)
                },
                Command::Resume {
                    role: Role::Maintenance,
                    worker: None
                },
                Command::Step {
                    role: Role::Interactive,
                    worker: Some(1)
                },
            ]
        );
        let script = ok(text);
        let lines: Vec<usize> = script.blocks.iter().map(|b| b.directive.line).collect();
        assert_eq!(lines, [3, 8, 12, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43]);
        let last = &script.blocks[12].directive;
        assert_eq!(
            last.configs,
            Some(vec!["solo".to_string(), "shared".to_string()])
        );
        assert_eq!(
            last.text,
            "step runtime=interactive worker=1 configs=(solo,shared)"
        );
        assert!(last.runs_under("solo") && !last.runs_under("other"));
        assert_eq!(script.blocks[0].directive.configs, None);
    }

    #[test]
    fn outputs_are_read_and_spans_cover_them() {
        let text = "tick\n----\nok\nstale\n\ntick\n----\n----\na\n\nb\n----\n----\n\ntick\n----\n";
        let s = ok(text);
        assert_eq!(s.blocks[0].output, ["ok", "stale"]);
        assert_eq!(&text[s.blocks[0].output_span.clone()], "----\nok\nstale\n");
        assert_eq!(s.blocks[1].output, ["a", "", "b"]);
        assert_eq!(
            &text[s.blocks[1].output_span.clone()],
            "----\n----\na\n\nb\n----\n----\n"
        );
        assert!(s.blocks[2].output.is_empty());
        assert_eq!(&text[s.blocks[2].output_span.clone()], "----\n");
        assert_eq!(
            s.blocks[1].directive_offset,
            text.find("tick\n----\n----").unwrap()
        );
    }

    #[test]
    fn argument_forms() {
        let (name, args) = tokenize("peek  index=i   as-of=3 flag k=( a , b )").unwrap();
        assert_eq!(name, "peek");
        let v: Vec<(String, Option<Vec<String>>)> =
            args.into_iter().map(|a| (a.key, a.values)).collect();
        assert_eq!(
            v,
            [
                ("index".into(), Some(vec!["i".into()])),
                ("as-of".into(), Some(vec!["3".into()])),
                ("flag".into(), None),
                ("k".into(), Some(vec!["a".into(), "b".into()])),
            ]
        );
    }

    #[test]
    fn structural_errors() {
        assert_eq!(
            err("\n\ntick\n"),
            "f.dd:3: `tick` is missing its `----` line (reached the end of the file)"
        );
        assert_eq!(
            err("statement\nCREATE TABLE t (a int)\n\nstatement\n----\n"),
            "f.dd:1: `statement` is missing its `----` line (blank line at line 3 ends its input)"
        );
        assert_eq!(
            err("tick\n----\n\ntick\n----\n----\nok\n"),
            "f.dd:5: unterminated doubled `----` block (no closing `----` `----` before the end of the file)"
        );
        assert_eq!(
            err("tick\n----\n----\nok\n----\n----\ntick\n----\n"),
            "f.dd:7: a doubled `----` block must be followed by a blank line or the end of the file"
        );
        assert_eq!(
            err("# c\n----\n"),
            "f.dd:2: `----` without a directive before it"
        );
        assert_eq!(
            err("tick\n----\ntick\n----\n"),
            "f.dd:4: `----` inside the output of the directive at line 1 (is a blank line missing after its output?)"
        );
    }

    #[test]
    fn token_errors() {
        assert_eq!(
            err("tick\n----\n\n=x\n----\n"),
            "f.dd:4: expected a directive name at the start of `=x`"
        );
        assert_eq!(
            err("peek(x)\n----\n"),
            "f.dd:1: unexpected `(` after directive name `peek`"
        );
        assert_eq!(
            err("peek index=\n----\n"),
            "f.dd:1: argument `index` has an empty value"
        );
        assert_eq!(
            err("tick configs=(solo\n----\n"),
            "f.dd:1: argument `configs`: `(` without a closing `)`"
        );
        assert_eq!(
            err("tick configs=(solo,)\n----\n"),
            "f.dd:1: argument `configs`: empty value in `(solo,)`"
        );
        assert_eq!(
            err("tick configs=()\n----\n"),
            "f.dd:1: argument `configs`: empty value in `()`"
        );
        assert_eq!(
            err("tick configs=(a)b\n----\n"),
            "f.dd:1: unexpected `b` after argument `configs`"
        );
        assert_eq!(
            err("peek index=a=b\n----\n"),
            "f.dd:1: argument `index`: malformed value `a=b`"
        );
        assert_eq!(
            err("peek index=i ,\n----\n"),
            "f.dd:1: expected an argument name at `,` (arguments are `key`, `key=value` or `key=(a,b)`)"
        );
    }

    #[test]
    fn directive_errors() {
        let cases = [
            ("select\n----\n", "f.dd:1: unknown directive `select` (expected one of: statement, query, peek, await, subscribe, fetch, cancel, hold, release, allow-compaction, tick, pause, resume, step)"),
            ("\npeek\n----\n", "f.dd:2: `peek` requires argument `index=<index>`"),
            ("peek as-of=1\n----\n", "f.dd:1: `peek` requires argument `index=<index>`"),
            ("peek index=i idx=j\n----\n", "f.dd:1: unknown argument `idx` for `peek` (expected `index`, `as-of`, `name`, `skip-postgres` or `configs=`)"),
            ("hold on=t at=1 name=h skip-postgres=compaction\n----\n", "f.dd:1: unknown argument `skip-postgres` for `hold` (expected `on`, `at`, `name` or `configs=`)"),
            ("query skip-postgres\nSELECT 1\n----\n", "f.dd:1: argument `skip-postgres` of `query` needs a value (`skip-postgres=...`)"),
            ("tick now\n----\n", "f.dd:1: unknown argument `now` for `tick` (it takes none but `configs=`)"),
            ("peek index=i as-of=soon\n----\n", "f.dd:1: argument `as-of` of `peek`: `soon` is not a timestamp (a non-negative integer)"),
            ("peek index=i as-of=-1\n----\n", "f.dd:1: argument `as-of` of `peek`: `-1` is not a timestamp (a non-negative integer)"),
            ("peek index\n----\n", "f.dd:1: argument `index` of `peek` needs a value (`index=...`)"),
            ("peek index=(a,b)\n----\n", "f.dd:1: argument `index` of `peek` takes one value, not a list"),
            ("peek index=i index=j\n----\n", "f.dd:1: duplicate argument `index` for `peek`"),
            ("peek index=i\nSELECT 1\n----\n", "f.dd:1: `peek` takes no input lines, found 1 before `----`"),
            ("await\n----\n", "f.dd:1: `await` requires argument `name=<peek>`"),
            ("hold on=t name=h\n----\n", "f.dd:1: `hold` requires argument `at=<timestamp>`"),
            ("hold on=t at=1\n----\n", "f.dd:1: `hold` requires argument `name=<hold>`"),
            ("hold at=1 name=h\n----\n", "f.dd:1: `hold` requires argument `on=<collection>`"),
            ("release\n----\n", "f.dd:1: `release` requires argument `name=<hold>`"),
            ("allow-compaction on=i\n----\n", "f.dd:1: `allow-compaction` requires argument `since=<timestamp>`"),
            ("allow-compaction on=i since=x\n----\n", "f.dd:1: argument `since` of `allow-compaction`: `x` is not a timestamp (a non-negative integer)"),
            ("pause\n----\n", "f.dd:1: `pause` requires argument `runtime=maintenance|interactive`"),
            ("resume runtime=solo\n----\n", "f.dd:1: argument `runtime` of `resume`: `solo` is not a runtime (maintenance or interactive)"),
            ("step runtime=interactive worker=x\n----\n", "f.dd:1: argument `worker` of `step`: `x` is not a worker index (a non-negative integer)"),
            ("query nosort=1\nSELECT 1\n----\n", "f.dd:1: `nosort` is a flag of `query` and takes no value"),
            ("query\n----\n", "f.dd:1: `query` needs SQL on the lines between it and `----`"),
            ("statement\n----\n", "f.dd:1: `statement` needs SQL on the lines between it and `----`"),
            ("tick configs\n----\n", "f.dd:1: argument `configs` of `tick` needs a value (`configs=(a,b)`)"),
            ("tick configs=(solo,solo)\n----\n", "f.dd:1: argument `configs` names `solo` twice"),
            ("tick\nx\n----\n", "f.dd:1: `tick` takes no input lines, found 1 before `----`"),
            ("subscribe name=s\n----\n", "f.dd:1: `subscribe` needs SQL on the lines between it and `----`"),
            ("subscribe\nSUBSCRIBE t\n----\n", "f.dd:1: `subscribe` requires argument `name=<subscribe>`"),
            ("fetch name=s\nSUBSCRIBE t\n----\n", "f.dd:1: `fetch` takes no input lines, found 1 before `----`"),
            ("cancel name=s as-of=1\n----\n", "f.dd:1: unknown argument `as-of` for `cancel` (expected `name` or `configs=`)"),
        ];
        for (text, expected) in cases {
            assert_eq!(err(text), expected, "for {text:?}");
        }
        // The reasons are listed in their table's order, whatever branch
        // added which (a list written out here went stale in a merge).
        let reasons: Vec<&str> = SkipReason::ALL.iter().map(|(_, name)| *name).collect();
        assert_eq!(
            err("query skip-postgres=slow\nSELECT 1\n----\n"),
            format!(
                "f.dd:1: argument `skip-postgres` of `query`: `slow` is not a reason (expected one of: {})",
                reasons.join(", ")
            )
        );
        assert!(reasons.starts_with(&["errors-as-data", "introspection"]));
    }

    #[test]
    fn skip_postgres_names_a_reason() {
        let script = ok("query skip-postgres=introspection\nSELECT * FROM mz_objects\n----\n\nquery\nSELECT 1\n----\n");
        let reasons: Vec<_> = script
            .blocks
            .iter()
            .map(|b| b.directive.skip_postgres)
            .collect();
        assert_eq!(reasons, [Some(SkipReason::Introspection), None]);
        for (reason, name) in SkipReason::ALL {
            assert_eq!(reason.name(), *name);
            let text = format!("await name=p skip-postgres={name}\n----\n");
            assert_eq!(ok(&text).blocks[0].directive.skip_postgres, Some(*reason));
        }
    }

    #[test]
    fn error_lines_count_from_the_top() {
        let text = "# c\n\nstatement\nCREATE TABLE t (a int)\n----\nok\n\n# more\n\npeek\n----\n";
        let e = parse("dir/f.dd", text).unwrap_err();
        assert_eq!((e.path.as_str(), e.line), ("dir/f.dd", 10));
        let text = "tick\n----\n----\nx\n\ny\n----\n----\n\npause runtime=x\n----\n";
        assert_eq!(parse("f.dd", text).unwrap_err().line, 10);
    }

    #[test]
    fn comments_and_blank_lines_only() {
        assert!(ok("# a\n\n   \n# b\n").blocks.is_empty());
        assert!(ok("").blocks.is_empty());
    }
}
