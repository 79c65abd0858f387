//! `cargo run -p runner testdata`: replays the suite; see `runner --help`.

use runner::app::{self, Env, Status};
use runner::cli::{self, Invocation};
use runner::isolate::{self, Isolation};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
    let mut env = Env::from_process();
    // A child checks its one file; the parent checks each file in a child.
    if let Some(rel) = std::env::var_os(isolate::CHILD_FILE) {
        let rel = PathBuf::from(rel);
        isolate::failpoint(&rel);
        let engine = &runner::run::target::engine;
        let status = app::check_one(&options, &env, engine, &rel, &mut out);
        if let Status::Usage(message) = &status {
            eprintln!("runner: {message}");
        }
        return ExitCode::from(status.exit_code() as u8);
    }
    match std::env::current_exe() {
        Ok(exe) => {
            env.isolation = Some(Isolation {
                exe,
                args: std::env::args_os().skip(1).collect(),
                timeout: options
                    .timeout
                    .map_or(isolate::DEFAULT_TIMEOUT, Duration::from_secs),
            })
        }
        Err(e) => eprintln!("runner: checking files in this process (no path to the runner: {e})"),
    }
    let status = app::run(&options, &env, &runner::run::target::engine, &mut out);
    if let Status::Usage(message) = &status {
        eprintln!("runner: {message}");
    }
    ExitCode::from(status.exit_code() as u8)
}
