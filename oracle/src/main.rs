//! `oracle [--url URL] [--goldens DIR] [--filter SUBSTR] DIR`: replays the
//! goldens of the suite in DIR on PostgreSQL and prints the report. Exit
//! status 0 if all passed, 1 if any failed, 2 if it could not start.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let files = oracle::connect(cli.url.as_deref()).and_then(|mut client| {
        oracle::check_suite(
            &mut client,
            &cli.dir,
            cli.goldens.as_deref(),
            cli.filter.as_deref(),
        )
    });
    match files {
        Err(e) => {
            eprintln!("oracle: {e}");
            ExitCode::from(2)
        }
        Ok(files) => {
            let (text, totals) = oracle::report::render(&files);
            print!("{text}");
            ExitCode::from(u8::from(totals.failed > 0))
        }
    }
}
