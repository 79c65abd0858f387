//! `cargo run -p runner testdata`: replays the suite; see `runner --help`.
//! The same binary, started by itself as a child (`isolate::child`),
//! checks one file and reports it to its parent.

use runner::app::{self, Env, Status};
use runner::cli::{self, Invocation, Options};
use runner::isolate::{self, child, Isolation};
use runner::process::cancel;
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if let Some(invocation) = child::invocation(&args) {
        return child_main(invocation);
    }
    let options = match options(&args) {
        Ok(options) => options,
        Err(code) => return code,
    };
    // From here a signal cancels the run (see `process::cancel`).
    cancel::install();
    let mut env = Env::from_process();
    match std::env::current_exe() {
        Ok(exe) => {
            env.isolation = Some(Isolation {
                exe,
                args,
                timeout: timeout(&options),
            })
        }
        Err(e) => eprintln!("runner: checking files in this process (no path to the runner: {e})"),
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let status = app::run(&options, &env, &runner::run::target::engine, &mut out);
    let _ = out.flush();
    if let Some(signal) = cancel::requested() {
        eprintln!(
            "runner: cancelled by {}: the files being checked were stopped, and no golden was written after the cancel",
            cancel::name(signal)
        );
        cancel::finish(signal);
    }
    if let Status::Usage(message) | Status::Unwritten(message) = &status {
        eprintln!("runner: {message}");
    }
    ExitCode::from(status.exit_code() as u8)
}

/// The options of a parent's command line, or the exit status when
/// nothing is left to do (help, version, a usage error: printed).
fn options(args: &[OsString]) -> Result<Options, ExitCode> {
    let parsed = strings(args).and_then(|args| cli::parse(&args));
    match parsed {
        Ok(Invocation::Run(options)) => Ok(options),
        Ok(Invocation::Help) => {
            print!("{}", cli::help());
            Err(ExitCode::SUCCESS)
        }
        Ok(Invocation::Version) => {
            println!("{}", cli::version());
            Err(ExitCode::SUCCESS)
        }
        Err(message) => {
            eprintln!(
                "runner: {message}\n\n{}\n\nFor more information, try '--help'.",
                cli::usage()
            );
            Err(ExitCode::from(2))
        }
    }
}

/// The arguments as text, or a usage error naming the first that is not.
fn strings(args: &[OsString]) -> Result<Vec<String>, String> {
    args.iter()
        .map(|a| {
            a.to_str()
                .map(str::to_string)
                .ok_or_else(|| format!("the argument {a:?} is not UTF-8"))
        })
        .collect()
}

fn timeout(options: &Options) -> Duration {
    options
        .timeout
        .map_or(isolate::DEFAULT_TIMEOUT, Duration::from_secs)
}

/// A child: checks its one file and prints its report as JSON, unless its
/// parent is gone by then.
fn child_main(invocation: Result<child::Invocation, String>) -> ExitCode {
    let parsed = invocation.and_then(|i| {
        let args = strings(&i.args)?;
        match cli::parse(&args)? {
            Invocation::Run(options) => Ok((i, options)),
            _ => Err("a child checks a file".to_string()),
        }
    });
    let (invocation, options) = match parsed {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("runner: {message}");
            return ExitCode::from(2);
        }
    };
    child::watch(invocation.parent, Some(timeout(&options)), &invocation.rel);
    child::failpoint(&invocation.rel);
    let env = Env::from_process();
    let mut report = Vec::new();
    let engine = &runner::run::target::engine;
    let status = app::check_one(&options, &env, engine, &invocation.rel, &mut report);
    if let Status::Usage(message) = &status {
        eprintln!("runner: {message}");
    }
    if !child::parent_alive(invocation.parent) {
        return ExitCode::from(1);
    }
    if std::io::stdout().write_all(&report).is_err() {
        return ExitCode::from(1);
    }
    ExitCode::from(status.exit_code() as u8)
}
