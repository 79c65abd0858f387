//! A scenario file's header: leading `# key: value` comment lines that narrow
//! the suite's run matrix for that file.
//!
//! ```text
//! # configs: solo
//! # workers: 2, 3
//! # seeds: round-robin, 7
//! # Free text starts here: anything that is not `# <lowercase-key>: ...`.
//! ```
//! The header is the run of lines at the very top of the file that have the
//! form `#` + optional spaces + a key made of lowercase letters, digits, `-`
//! and `_` + `:`. It ends at the first other line. Keys: `configs` (names from
//! suite.yaml), `workers` (positive integers), `seeds` (`round-robin` or an
//! integer seed); values are comma-separated. `dialect` (`sqllogictest` or
//! `materialize`) says how an `.slt` file is read (the format reads it,
//! `Dialect::of_header`; here it is checked). Any other key is an error,
//! and so is a known key in a comment below the header.

use crate::format::Dialect;
use crate::suite::{check_list, Schedule, MAX_WORKERS};

/// The header's keys.
pub const KEYS: &[&str] = &["configs", "workers", "seeds", "dialect"];

/// One narrowed dimension and the line it was given on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrowing<T> {
    pub line: usize,
    pub values: Vec<T>,
}

/// What a file's header narrows; `None` keeps the suite's list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub configs: Option<Narrowing<String>>,
    pub workers: Option<Narrowing<usize>>,
    pub seeds: Option<Narrowing<Schedule>>,
}

/// A malformed header line: 1-based line and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderError {
    pub line: usize,
    pub message: String,
}

/// `Some((key, value))` if `line` has the header form.
fn header_form(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let colon = rest.find(':')?;
    let key = &rest[..colon];
    let well_formed = key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    well_formed.then(|| (key, rest[colon + 1..].trim()))
}

/// Parses the header of a scenario file's text.
pub fn parse(text: &str) -> Result<Header, HeaderError> {
    let mut header = Header::default();
    let mut in_header = true;
    let mut dialect_line: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let error = |message: String| HeaderError { line, message };
        let form = header_form(raw.trim_end());
        let Some((key, value)) = form.filter(|_| in_header) else {
            in_header = false;
            if let Some((key, _)) = form.filter(|(k, _)| KEYS.contains(k)) {
                return Err(error(format!(
                    "header `{key}:` must be in the comment block at the top of the file"
                )));
            }
            continue;
        };
        let items: Vec<&str> = value.split(',').map(str::trim).collect();
        if items.iter().any(|s| s.is_empty()) {
            return Err(error(format!(
                "header `{key}:` needs a comma-separated list of values, found `{value}`"
            )));
        }
        match key {
            "configs" => {
                let values: Vec<String> = items.iter().map(|s| s.to_string()).collect();
                check_list(key, &values).map_err(error)?;
                set(&mut header.configs, line, values).map_err(error)?;
            }
            "workers" => {
                let values = items
                    .iter()
                    .map(|s| match s.parse::<usize>() {
                        Ok(n) if n > MAX_WORKERS => Err(format!(
                            "header `workers:`: `{s}` is more than {MAX_WORKERS} workers"
                        )),
                        Ok(n) if n > 0 => Ok(n),
                        _ => Err(format!("header `workers:`: `{s}` is not a positive integer")),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(error)?;
                check_list(key, &values).map_err(error)?;
                set(&mut header.workers, line, values).map_err(error)?;
            }
            "seeds" => {
                let values = items
                    .iter()
                    .map(|s| Schedule::parse(s).map_err(|m| format!("header `seeds:`: {m}")))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(error)?;
                check_list(key, &values).map_err(error)?;
                set(&mut header.seeds, line, values).map_err(error)?;
            }
            "dialect" => {
                if Dialect::parse(value).is_none() {
                    let names: Vec<&str> = Dialect::ALL.iter().map(|(_, n)| *n).collect();
                    return Err(error(format!(
                        "header `dialect:`: `{value}` is not a dialect (expected one of: {})",
                        names.join(", ")
                    )));
                }
                if dialect_line.replace(line).is_some() {
                    return Err(error("header key repeated".to_string()));
                }
            }
            _ => {
                return Err(error(format!(
                    "unknown header key `{key}` (expected one of: {}; free text must not start with `<lowercase-word>:`)",
                    KEYS.join(", ")
                )))
            }
        }
    }
    Ok(header)
}

fn set<T>(slot: &mut Option<Narrowing<T>>, line: usize, values: Vec<T>) -> Result<(), String> {
    if let Some(prev) = slot {
        return Err(format!(
            "header key repeated (first given at line {})",
            prev.line
        ));
    }
    *slot = Some(Narrowing { line, values });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrows() {
        let h = parse("# configs: solo, shared\n#workers: 2\n# seeds: round-robin,7\n# Free text: here.\n\nstatement\n").unwrap();
        assert_eq!(
            h.configs,
            Some(Narrowing {
                line: 1,
                values: vec!["solo".to_string(), "shared".to_string()]
            })
        );
        assert_eq!(
            h.workers,
            Some(Narrowing {
                line: 2,
                values: vec![2]
            })
        );
        assert_eq!(
            h.seeds,
            Some(Narrowing {
                line: 3,
                values: vec![Schedule::RoundRobin, Schedule::Seed(7)]
            })
        );
    }

    #[test]
    fn no_header() {
        assert_eq!(
            parse("# A comment: with a colon.\n\ntick\n----\n").unwrap(),
            Header::default()
        );
        assert_eq!(parse("").unwrap(), Header::default());
        // An unknown lowercase key below the header is just a comment.
        assert_eq!(
            parse("# Text.\n# note: fine here\n").unwrap(),
            Header::default()
        );
    }

    #[test]
    fn the_projects_headers_parse() {
        let h = parse("# workers: 2\n# Per-worker error counts on two workers: errors are exchanged by their own\n").unwrap();
        assert_eq!(
            h.workers,
            Some(Narrowing {
                line: 1,
                values: vec![2]
            })
        );
    }

    fn err(text: &str) -> (usize, String) {
        let e = parse(text).unwrap_err();
        (e.line, e.message)
    }

    #[test]
    fn errors_with_lines() {
        let (line, m) = err("# workers: 2\n# sedes: 7\n");
        assert_eq!(line, 2);
        assert!(m.starts_with("unknown header key `sedes`"), "{m}");
        assert_eq!(err("# workers: 0\n").0, 1);
        assert_eq!(
            err("# workers: 2, 1000\n"),
            (
                1,
                "header `workers:`: `1000` is more than 64 workers".to_string()
            )
        );
        assert!(err("# workers: two\n")
            .1
            .contains("`two` is not a positive integer"));
        assert_eq!(
            err("# workers: 1, 1\n"),
            (1, "`workers` lists `1` twice".to_string())
        );
        assert!(err("# seeds: fast\n")
            .1
            .contains("`fast` is not a schedule"));
        assert_eq!(err("# configs:\n").0, 1);
        assert_eq!(err("# configs: solo,,shared\n").0, 1);
        assert_eq!(
            err("# workers: 1\n# workers: 2\n"),
            (2, "header key repeated (first given at line 1)".to_string())
        );
        let (line, m) = err("# Text first.\n# workers: 2\n");
        assert_eq!(line, 2);
        assert!(m.contains("must be in the comment block at the top"), "{m}");
        assert_eq!(err("tick\n----\n\n# configs: solo\n").0, 4);
        assert!(err("# dialect: postgres\n").1.contains("not a dialect"));
        assert_eq!(err("# dialect: materialize\n# dialect: materialize\n").0, 2);
        assert_eq!(
            parse("# dialect: materialize\n").unwrap(),
            Header::default()
        );
    }
}
