//! The directives a scenario may use, validated against the table of docs/scenarios.md.
//!
//! The parser hands over a directive's name, its raw arguments and its input
//! lines; [`Directive::validate`] turns them into a typed [`Command`] or a
//! message saying exactly what is wrong.

use engine::repr::Timestamp;
use engine::Role;

pub use super::skip::SkipReason;

/// The directive names, in the order they are listed in error messages.
pub const NAMES: &[&str] = &[
    "statement",
    "query",
    "peek",
    "await",
    "subscribe",
    "fetch",
    "cancel",
    "hold",
    "release",
    "allow-compaction",
    "tick",
    "pause",
    "resume",
    "step",
];

/// One argument as written: `key`, `key=value` or `key=(a,b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawArg {
    pub key: String,
    /// `None` for a bare flag; one element for `key=value`.
    pub values: Option<Vec<String>>,
}

/// What a scenario asks the engine to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Statement {
        sql: String,
    },
    /// A `simple` record of several statements on the default connection:
    /// one request of the simple query protocol (`Engine::simple`).
    Simple {
        sql: String,
    },
    /// A `simple` record on a named connection (Materialize's `simple
    /// conn=NAME,user=USER`): `sql` runs on connection `name`, opened as
    /// `user` on its first use; as a read if `query`.
    Connection {
        name: String,
        user: String,
        sql: String,
        query: bool,
    },
    Query {
        sql: String,
        /// False with `nosort`: rows are printed in the engine's order.
        sort: bool,
    },
    /// `peek index= [as-of=]` without `name=`: a peek whose result is printed.
    Peek {
        index: String,
        as_of: Option<Timestamp>,
    },
    /// `peek index= [as-of=] name=`: the peek is only issued.
    IssuePeek {
        index: String,
        as_of: Option<Timestamp>,
        name: String,
    },
    Await {
        name: String,
    },
    /// `subscribe name=S` with a SUBSCRIBE statement as input.
    Subscribe {
        name: String,
        sql: String,
    },
    /// What subscribe `name` emitted since the last fetch.
    Fetch {
        name: String,
    },
    /// Cancels subscribe `name`.
    Cancel {
        name: String,
    },
    Hold {
        on: String,
        at: Timestamp,
        name: String,
    },
    Release {
        name: String,
    },
    AllowCompaction {
        on: String,
        since: Timestamp,
    },
    Tick,
    /// Materialize's `reset-server`: the directives after it run on a
    /// fresh engine (not a `.dd` directive).
    Reset,
    Pause {
        role: Role,
        worker: Option<usize>,
    },
    Resume {
        role: Role,
        worker: Option<usize>,
    },
    Step {
        role: Role,
        worker: Option<usize>,
    },
}

impl Command {
    /// Whether rows in this command's result are sorted before printing
    /// (a fetch's updates come sorted by time, then row).
    pub fn sorts_rows(&self) -> bool {
        !matches!(
            self,
            Command::Query { sort: false, .. }
                | Command::Fetch { .. }
                | Command::Connection { .. }
                | Command::Simple { .. }
        )
    }

    /// Whether a `Rows` (or, for a fetch, `Updates`) outcome of this
    /// command is a user read result.
    pub fn is_read(&self) -> bool {
        matches!(
            self,
            Command::Query { .. }
                | Command::Peek { .. }
                | Command::Await { .. }
                | Command::Fetch { .. }
        )
    }
}

/// A validated directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// 1-based line of the directive in its file.
    pub line: usize,
    /// The directive line as written, trimmed (used in reports).
    pub text: String,
    pub command: Command,
    /// `configs=(...)`: the configurations it runs under; `None` means all.
    pub configs: Option<Vec<String>>,
    /// sqllogictest `skipif`/`onlyif` labels, all of which must hold (empty in `.dd`).
    pub conditions: Vec<Condition>,
    /// `skip-postgres=<reason>`: PostgreSQL, replaying the file as the
    /// oracle does, legitimately answers otherwise; the engine ignores it.
    pub skip_postgres: Option<SkipReason>,
}

/// A sqllogictest condition. The labels of a run are its configuration's
/// name only, so a label naming another database (`postgres`) never holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    OnlyIf(String),
    SkipIf(String),
}

impl Condition {
    /// The label it tests.
    pub fn label(&self) -> &str {
        match self {
            Condition::OnlyIf(l) | Condition::SkipIf(l) => l,
        }
    }

    fn holds_under(&self, configuration: &str) -> bool {
        match self {
            Condition::OnlyIf(l) => l == configuration,
            Condition::SkipIf(l) => l != configuration,
        }
    }
}

impl Directive {
    /// Validates a directive; the error is the message (without `path:line:`).
    pub fn validate(
        line: usize,
        text: &str,
        name: &str,
        args: Vec<RawArg>,
        input: &[String],
    ) -> Result<Directive, String> {
        if !NAMES.contains(&name) {
            return Err(format!(
                "unknown directive `{name}` (expected one of: {})",
                NAMES.join(", ")
            ));
        }
        let allowed = allowed_arguments(name);
        if let Some(arg) = args
            .iter()
            .find(|a| a.key != "configs" && !allowed.contains(&a.key.as_str()))
        {
            let expected = if allowed.is_empty() {
                "it takes none but `configs=`".to_string()
            } else {
                format!("expected {} or `configs=`", quoted(allowed))
            };
            return Err(format!(
                "unknown argument `{}` for `{name}` ({expected})",
                arg.key
            ));
        }
        let mut args = Args::new(name, args)?;
        let configs = args.list("configs")?;
        let skip_postgres = args.skip_reason()?;
        let command = match name {
            "statement" => Command::Statement {
                sql: args.sql(input)?,
            },
            "query" => {
                let sort = !args.flag("nosort")?;
                Command::Query {
                    sql: args.sql(input)?,
                    sort,
                }
            }
            "peek" => {
                let index = args.required("index", "<index>")?;
                let as_of = args.optional_timestamp("as-of")?;
                match args.optional("name")? {
                    Some(name) => Command::IssuePeek { index, as_of, name },
                    None => Command::Peek { index, as_of },
                }
            }
            "await" => Command::Await {
                name: args.required("name", "<peek>")?,
            },
            "subscribe" => Command::Subscribe {
                name: args.required("name", "<subscribe>")?,
                sql: args.sql(input)?,
            },
            "fetch" => Command::Fetch {
                name: args.required("name", "<subscribe>")?,
            },
            "cancel" => Command::Cancel {
                name: args.required("name", "<subscribe>")?,
            },
            "hold" => Command::Hold {
                on: args.required("on", "<collection>")?,
                at: args.required_timestamp("at")?,
                name: args.required("name", "<hold>")?,
            },
            "release" => Command::Release {
                name: args.required("name", "<hold>")?,
            },
            "allow-compaction" => Command::AllowCompaction {
                on: args.required("on", "<collection>")?,
                since: args.required_timestamp("since")?,
            },
            "tick" => Command::Tick,
            "pause" | "resume" | "step" => {
                let role = args.role()?;
                let worker = args.optional_worker()?;
                match name {
                    "pause" => Command::Pause { role, worker },
                    "resume" => Command::Resume { role, worker },
                    _ => Command::Step { role, worker },
                }
            }
            _ => unreachable!("checked against NAMES"),
        };
        args.finish()?;
        if !matches!(
            command,
            Command::Statement { .. } | Command::Query { .. } | Command::Subscribe { .. }
        ) && !input.is_empty()
        {
            return Err(format!(
                "`{name}` takes no input lines, found {} before `----`",
                input.len()
            ));
        }
        Ok(Directive {
            line,
            text: text.trim().to_string(),
            command,
            configs,
            conditions: Vec::new(),
            skip_postgres,
        })
    }

    /// Whether this directive runs under the named configuration.
    pub fn runs_under(&self, configuration: &str) -> bool {
        let listed = match &self.configs {
            None => true,
            Some(names) => names.iter().any(|n| n == configuration),
        };
        listed && self.conditions.iter().all(|c| c.holds_under(configuration))
    }
}

/// The arguments each directive accepts besides `configs=`.
fn allowed_arguments(name: &str) -> &'static [&'static str] {
    match name {
        "statement" => &["skip-postgres"],
        "query" => &["nosort", "skip-postgres"],
        "peek" => &["index", "as-of", "name", "skip-postgres"],
        "await" => &["name", "skip-postgres"],
        "subscribe" | "fetch" | "cancel" => &["name"],
        "release" => &["name"],
        "hold" => &["on", "at", "name"],
        "allow-compaction" => &["on", "since"],
        "pause" | "resume" | "step" => &["runtime", "worker"],
        _ => &[],
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The arguments of one directive, consumed as they are validated.
struct Args<'a> {
    directive: &'a str,
    args: Vec<RawArg>,
}

impl<'a> Args<'a> {
    fn new(directive: &'a str, args: Vec<RawArg>) -> Result<Self, String> {
        for (i, arg) in args.iter().enumerate() {
            if args[..i].iter().any(|a| a.key == arg.key) {
                return Err(format!(
                    "duplicate argument `{}` for `{directive}`",
                    arg.key
                ));
            }
        }
        Ok(Args { directive, args })
    }

    fn take(&mut self, key: &str) -> Option<RawArg> {
        let i = self.args.iter().position(|a| a.key == key)?;
        Some(self.args.remove(i))
    }

    /// `key=value` (one value), if present.
    fn optional(&mut self, key: &str) -> Result<Option<String>, String> {
        let directive = self.directive;
        match self.take(key) {
            None => Ok(None),
            Some(RawArg { values: None, .. }) => Err(format!(
                "argument `{key}` of `{directive}` needs a value (`{key}=...`)"
            )),
            Some(RawArg {
                values: Some(mut values),
                ..
            }) => {
                if values.len() != 1 {
                    return Err(format!(
                        "argument `{key}` of `{directive}` takes one value, not a list"
                    ));
                }
                Ok(values.pop())
            }
        }
    }

    fn required(&mut self, key: &str, what: &str) -> Result<String, String> {
        let directive = self.directive;
        self.optional(key)?
            .ok_or_else(|| format!("`{directive}` requires argument `{key}={what}`"))
    }

    fn timestamp(&self, key: &str, value: &str) -> Result<Timestamp, String> {
        value.parse::<Timestamp>().map_err(|_| {
            format!(
                "argument `{key}` of `{}`: `{value}` is not a timestamp (a non-negative integer)",
                self.directive
            )
        })
    }

    fn optional_timestamp(&mut self, key: &str) -> Result<Option<Timestamp>, String> {
        match self.optional(key)? {
            None => Ok(None),
            Some(v) => self.timestamp(key, &v).map(Some),
        }
    }

    fn required_timestamp(&mut self, key: &str) -> Result<Timestamp, String> {
        let v = self.required(key, "<timestamp>")?;
        self.timestamp(key, &v)
    }

    /// `skip-postgres=<reason>`, if present.
    fn skip_reason(&mut self) -> Result<Option<SkipReason>, String> {
        let Some(value) = self.optional("skip-postgres")? else {
            return Ok(None);
        };
        SkipReason::parse(&value).map(Some).ok_or_else(|| {
            let names: Vec<&str> = SkipReason::ALL.iter().map(|(_, n)| *n).collect();
            format!(
                "argument `skip-postgres` of `{}`: `{value}` is not a reason (expected one of: {})",
                self.directive,
                names.join(", ")
            )
        })
    }

    fn role(&mut self) -> Result<Role, String> {
        match self.required("runtime", "maintenance|interactive")?.as_str() {
            "maintenance" => Ok(Role::Maintenance),
            "interactive" => Ok(Role::Interactive),
            other => Err(format!(
                "argument `runtime` of `{}`: `{other}` is not a runtime (maintenance or interactive)",
                self.directive
            )),
        }
    }

    fn optional_worker(&mut self) -> Result<Option<usize>, String> {
        match self.optional("worker")? {
            None => Ok(None),
            Some(v) => v.parse::<usize>().map(Some).map_err(|_| {
                format!(
                    "argument `worker` of `{}`: `{v}` is not a worker index (a non-negative integer)",
                    self.directive
                )
            }),
        }
    }

    /// A bare flag; a value is an error.
    fn flag(&mut self, key: &str) -> Result<bool, String> {
        match self.take(key) {
            None => Ok(false),
            Some(RawArg { values: None, .. }) => Ok(true),
            Some(_) => Err(format!(
                "`{key}` is a flag of `{}` and takes no value",
                self.directive
            )),
        }
    }

    /// `key=(a,b)` or `key=a`: a non-empty list of distinct names.
    fn list(&mut self, key: &str) -> Result<Option<Vec<String>>, String> {
        let directive = self.directive;
        match self.take(key) {
            None => Ok(None),
            Some(RawArg { values: None, .. }) => Err(format!(
                "argument `{key}` of `{directive}` needs a value (`{key}=(a,b)`)"
            )),
            Some(RawArg {
                values: Some(values),
                ..
            }) => {
                for (i, v) in values.iter().enumerate() {
                    if values[..i].contains(v) {
                        return Err(format!("argument `{key}` names `{v}` twice"));
                    }
                }
                Ok(Some(values))
            }
        }
    }

    /// The SQL text of the input lines; it must not be empty.
    fn sql(&self, input: &[String]) -> Result<String, String> {
        if input.iter().all(|l| l.trim().is_empty()) {
            return Err(format!(
                "`{}` needs SQL on the lines between it and `----`",
                self.directive
            ));
        }
        Ok(input.join("\n"))
    }

    /// Every argument must have been consumed.
    fn finish(self) -> Result<(), String> {
        match self.args.first() {
            None => Ok(()),
            Some(arg) => Err(format!(
                "unknown argument `{}` for `{}`",
                arg.key, self.directive
            )),
        }
    }
}
