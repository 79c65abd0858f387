//! PostgreSQL as an independent oracle for the suite's goldens. A golden is
//! a claim the engine wrote; this crate replays each golden's SQL on a real
//! PostgreSQL server and compares every statement's and read's answer,
//! rendered exactly as the runner renders the engine's, with the claim.
//!
//! Layers, each using only those before it: [`translate`] (a directive's
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

pub use check::{check_script, Finding, Verdict};
pub use suite::{check_file, check_suite, FileReport};

use postgres::{Client, Config, NoTls};

/// Connects to `url` (`postgresql://user@host:port/db`), or without one to
/// what the standard variables say: `PGURL`, else `PGHOST` (default
/// `localhost`), `PGPORT` (5432), `PGUSER` (`postgres`), `PGPASSWORD` and
/// `PGDATABASE` (the user's name).
pub fn connect(url: Option<&str>) -> Result<Client, String> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let config = match url.map(str::to_string).or_else(|| env("PGURL")) {
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
    config
        .connect(NoTls)
        .map_err(|e| format!("cannot connect to PostgreSQL: {e} (give --url or PGURL)"))
}
