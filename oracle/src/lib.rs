//! PostgreSQL as an independent oracle for the suite's goldens. A golden is
//! a claim the engine wrote; this crate replays each golden's SQL on a real
//! PostgreSQL server and compares every statement's and read's answer,
//! rendered exactly as the runner renders the engine's, with the claim.
//!
//! Layers, each using only those before it: [`watch`] (the call to the
//! server under way, and giving up on a server that stopped answering),
//! [`translate`] (a directive's
//! SQL split and classified, `AS OF` taken off), [`timeline`] (the engine's
//! clock: which writes a read at `T` sees, what an index or peek names),
//! [`session`] (one file on one connection, in a schema of its own),
//! [`check`] (verdicts per directive against the golden and its markers),
//! [`suite`] (every golden of a suite), [`report`] (the text report) and
//! [`github`] (annotations and the job summary under GitHub Actions).
//! [`check_script`] and [`connect`] are what other tools call.

pub mod check;
pub mod github;
pub mod report;
pub mod session;
pub mod suite;
pub mod timeline;
pub mod translate;
pub mod watch;

pub use check::{check_script, Finding, Verdict};
pub use suite::{check_file, check_suite, FileReport};

use std::time::Duration;

use postgres::config::Host;
use postgres::{Client, Config, NoTls};

/// How long [`connect`] waits for the server to accept and answer.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest one statement may run on the server (`statement_timeout`,
/// which the server enforces): a file whose SQL runs away fails.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// Connects to `url` (`postgresql://user@host:port/db`), or without one to
/// what the standard variables say: `PGURL`, else `PGHOST` (default
/// `localhost`), `PGPORT` (5432), `PGUSER` (`postgres`), `PGPASSWORD` and
/// `PGDATABASE` (the user's name). It waits at most [`CONNECT_TIMEOUT`].
pub fn connect(url: Option<&str>) -> Result<Client, String> {
    connect_within(url, CONNECT_TIMEOUT, STATEMENT_TIMEOUT)
}

/// [`connect`], waiting at most `timeout` for the whole handshake: a server
/// that accepts the connection and never answers once hung the oracle
/// (`connect_timeout` in the URL bounds only the TCP connect). An error
/// names the host, the port and the cause, and hints at `--url` or `PGURL`
/// only when neither was given. Each statement may run `statement_timeout`
/// on the server; the session's time zone is UTC.
pub fn connect_within(
    url: Option<&str>,
    timeout: Duration,
    statement_timeout: Duration,
) -> Result<Client, String> {
    let (mut config, hint) = config_of(url)?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(timeout);
    }
    // Before the URL's own options, so that one it sets wins. The session
    // time zone is UTC, Materialize's `TimeZone` (docs/semantics.md,
    // "Timestamps with time zone"), whatever the server's default.
    let millis = statement_timeout.as_millis();
    let ours = format!("-c statement_timeout={millis} -c TimeZone=UTC");
    let options = match config.get_options() {
        Some(own) => format!("{ours} {own}"),
        None => ours,
    };
    config.options(&options);
    let server = server(&config);
    // The handshake on a thread of its own, so that a silent server costs
    // `timeout` and no more; the thread ends with the process.
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sent.send(config.connect(NoTls));
    });
    match received.recv_timeout(timeout) {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(e)) => Err(format!(
            "cannot connect to PostgreSQL at {server}: {}{hint}",
            causes(&e)
        )),
        Err(_) => Err(format!(
            "cannot connect to PostgreSQL at {server}: no answer within {} s (the server accepted the connection, or did not, and never answered){hint}",
            timeout.as_secs_f64()
        )),
    }
}

/// `host:port` of the server [`connect`] would connect to, for messages.
pub fn server_named(url: Option<&str>) -> String {
    match config_of(url) {
        Ok((config, _)) => server(&config),
        Err(e) => e,
    }
}

/// The connection settings of `url` or the environment, and the hint an
/// error gives when neither `--url` nor `PGURL` was given.
fn config_of(url: Option<&str>) -> Result<(Config, &'static str), String> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let given = url.map(str::to_string).or_else(|| env("PGURL"));
    let hint = match given {
        Some(_) => "",
        None => " (give --url or PGURL)",
    };
    let config = match given {
        Some(url) => url
            .parse::<Config>()
            .map_err(|e| format!("bad PostgreSQL URL `{url}`: {e}"))?,
        None => {
            let mut config = Config::new();
            config.host(env("PGHOST").as_deref().unwrap_or("localhost"));
            config.user(env("PGUSER").as_deref().unwrap_or("postgres"));
            let port = env("PGPORT").unwrap_or_else(|| "5432".into());
            config.port(
                port.parse()
                    .map_err(|_| format!("PGPORT `{port}` is not a port"))?,
            );
            if let Some(password) = env("PGPASSWORD") {
                config.password(password);
            }
            if let Some(db) = env("PGDATABASE") {
                config.dbname(&db);
            }
            config
        }
    };
    Ok((config, hint))
}

/// `host:port` (each of them, if several) of `config`.
fn server(config: &Config) -> String {
    let ports = config.get_ports();
    let servers: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            match host {
                Host::Tcp(name) => format!("{name}:{port}"),
                #[cfg(unix)]
                Host::Unix(path) => format!("{}:{port}", path.display()),
            }
        })
        .collect();
    match servers.is_empty() {
        true => "localhost:5432".to_string(),
        false => servers.join(", "),
    }
}

/// An error and its causes, outermost first: `error connecting to server:
/// Connection refused (os error 111)`.
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(&format!(": {cause_text}"));
        }
        source = cause.source();
    }
    text
}
