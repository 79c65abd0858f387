//! `oracle [--url URL] [--goldens DIR] [--filter SUBSTR]
//! [--statement-timeout SECONDS] DIR`: replays the goldens of the suite in
//! DIR on PostgreSQL and prints the report. Exit status 0 if all passed, 1
//! if any failed, 2 if it could not start or the server stopped answering. Under
//! GitHub Actions it also annotates each disagreement and writes the job
//! summary (`github.rs`).

use clap::Parser;
use runner::report::github;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Replays every golden's SQL on PostgreSQL and compares each answer with the golden.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// The scenario directory (its goldens are beside it, as for the runner).
    dir: PathBuf,
    /// The server (`postgresql://user@host:port/db`); default: PGURL, else PGHOST etc.
    #[arg(long)]
    url: Option<String>,
    /// The goldens directory (default: `goldens` beside DIR).
    #[arg(long)]
    goldens: Option<PathBuf>,
    /// Only files whose path relative to DIR contains SUBSTR.
    #[arg(long, value_name = "SUBSTR")]
    filter: Option<String>,
    /// GitHub annotations of disagreements: github or none (default: github under GITHUB_ACTIONS=true).
    #[arg(long, value_name = "github|none", value_parser = ["github", "none"])]
    annotations: Option<String>,
    /// The longest one statement may run on the server; a server silent for
    /// half as long again after that is given up on (exit 2).
    #[arg(long, value_name = "SECONDS", default_value_t = oracle::STATEMENT_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    statement_timeout: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let annotate = github::annotating(
        cli.annotations.as_deref().map(|a| a == "github"),
        std::env::var("GITHUB_ACTIONS").ok().as_deref(),
    );
    let summary = github::summary_file(std::env::var_os("GITHUB_STEP_SUMMARY").as_deref());
    let dir = cli.dir.display().to_string();
    let scope = match &cli.filter {
        Some(filter) => format!("oracle {dir} --filter {filter}"),
        None => format!("oracle {dir}"),
    };
    let append = |markdown: String| {
        if let Some(path) = &summary {
            if let Err(e) = github::append(path, &markdown) {
                eprintln!("oracle: {e}");
            }
        }
    };
    let statement_timeout = Duration::from_secs(cli.statement_timeout);
    let server = oracle::server_named(cli.url.as_deref());
    let (url, dir_path) = (cli.url.clone(), cli.dir.clone());
    let (goldens, filter) = (cli.goldens.clone(), cli.filter.clone());
    let files = oracle::watch::watched(oracle::watch::limit(statement_timeout), move || {
        oracle::connect_within(url.as_deref(), oracle::CONNECT_TIMEOUT, statement_timeout).and_then(
            |mut client| {
                oracle::check_suite(
                    &mut client,
                    &dir_path,
                    goldens.as_deref(),
                    filter.as_deref(),
                )
            },
        )
    })
    .map_err(|e| format!("PostgreSQL at {server}: {e}"))
    .and_then(|files| files);
    match files {
        Err(e) => {
            eprintln!("oracle: {e}");
            append(oracle::github::could_not_run(&scope, &e));
            ExitCode::from(2)
        }
        Ok(files) => {
            let (text, totals) = oracle::report::render(&files);
            if annotate {
                print!("{}", oracle::github::annotations(&files));
            }
            print!("{text}");
            append(oracle::github::summary(&scope, &dir, &files, totals));
            ExitCode::from(u8::from(totals.failed > 0))
        }
    }
}
