//! `cargo run -p runner testdata`: replays the suite; see `runner --help`.

use runner::app::{self, Env, Status};
use runner::cli::{self, Invocation};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match cli::parse(&args) {
        Ok(Invocation::Run(options)) => options,
        Ok(Invocation::Help) => {
            print!("{}", cli::help());
            return ExitCode::SUCCESS;
        }
        Ok(Invocation::Version) => {
            println!("{}", cli::version());
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!(
                "runner: {message}\n\n{}\n\nFor more information, try '--help'.",
                cli::usage()
            );
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let status = app::run(
        &options,
        &Env::from_process(),
        &runner::run::target::engine,
        &mut out,
    );
    if let Status::Usage(message) = &status {
        eprintln!("runner: {message}");
    }
    ExitCode::from(status.exit_code() as u8)
}
