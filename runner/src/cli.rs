//! Command-line arguments.

use std::path::PathBuf;

pub const USAGE: &str = "\
usage: runner [OPTIONS] DIR

Replays every *.dd scenario under DIR against the reference engine under each
configuration x worker count x schedule of DIR/suite.yaml, and checks the
transcripts against the goldens.

options:
  --goldens DIR     goldens directory (default: `goldens` beside DIR)
  --suite FILE      run matrix (default: DIR/suite.yaml)
  --filter SUBSTR   only files whose path relative to DIR contains SUBSTR
  --rewrite         write goldens that changed (same as REWRITE=1; refused under CI=true)
  -h, --help        this text

exit status: 0 all files passed, 1 some failed, 2 usage error";

/// What the command line asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub scenarios: PathBuf,
    pub goldens: Option<PathBuf>,
    pub suite: Option<PathBuf>,
    pub filter: Option<String>,
    pub rewrite: bool,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    Run(Options),
    Help,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Invocation, String> {
    let mut options = Options::default();
    let mut dir: Option<PathBuf> = None;
    let mut i = 0;
    let mut only_positional = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positional || !arg.starts_with('-') || arg == "-" {
            if dir.replace(PathBuf::from(arg)).is_some() {
                return Err(format!(
                    "unexpected argument `{arg}`: give one scenario directory"
                ));
            }
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args
                .get(i)
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))?;
            i += 1;
            Ok(v)
        };
        match flag {
            "--" => only_positional = true,
            "-h" | "--help" => return Ok(Invocation::Help),
            "--rewrite" if inline.is_none() => options.rewrite = true,
            "--goldens" => options.goldens = Some(PathBuf::from(value(flag)?)),
            "--suite" => options.suite = Some(PathBuf::from(value(flag)?)),
            "--filter" => options.filter = Some(value(flag)?),
            _ => return Err(format!("unknown option `{arg}`")),
        }
    }
    options.scenarios = dir.ok_or("missing the scenario directory (e.g. `testdata`)")?;
    Ok(Invocation::Run(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Invocation, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn flags() {
        assert_eq!(
            p(&["testdata"]),
            Ok(Invocation::Run(Options {
                scenarios: "testdata".into(),
                ..Options::default()
            }))
        );
        assert_eq!(
            p(&[
                "--rewrite",
                "--filter",
                "peeks/",
                "testdata",
                "--goldens=g",
                "--suite",
                "s.yaml"
            ]),
            Ok(Invocation::Run(Options {
                scenarios: "testdata".into(),
                goldens: Some("g".into()),
                suite: Some("s.yaml".into()),
                filter: Some("peeks/".into()),
                rewrite: true,
            }))
        );
        assert_eq!(p(&["-h"]), Ok(Invocation::Help));
        assert_eq!(
            p(&["--", "-odd"]),
            Ok(Invocation::Run(Options {
                scenarios: "-odd".into(),
                ..Options::default()
            }))
        );
    }

    #[test]
    fn usage_errors() {
        assert!(p(&[])
            .unwrap_err()
            .contains("missing the scenario directory"));
        assert_eq!(
            p(&["a", "b"]).unwrap_err(),
            "unexpected argument `b`: give one scenario directory"
        );
        assert_eq!(
            p(&["a", "--bogus"]).unwrap_err(),
            "unknown option `--bogus`"
        );
        assert_eq!(
            p(&["a", "--filter"]).unwrap_err(),
            "`--filter` needs a value"
        );
        assert_eq!(
            p(&["a", "--rewrite=1"]).unwrap_err(),
            "unknown option `--rewrite=1`"
        );
    }
}
