//! A bench binary's settings: `--name N`, `--name=N` or the environment
//! variable `<BENCH>_BENCH_<NAME>`, else a default. One reader for every
//! bench, so that each takes its arguments the same way.

use std::process::exit;

/// Setting `name` of bench `bench`, from `args`, the environment or
/// `default`.
pub fn setting<T: std::str::FromStr>(bench: &str, args: &[String], name: &str, default: T) -> T {
    let flag = format!("--{name}");
    let mut text = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if *arg == flag {
            let value = rest
                .next()
                .unwrap_or_else(|| usage(bench, &format!("{flag} needs a value")));
            text = Some(value.clone());
        } else if let Some(value) = arg.strip_prefix(&flag).and_then(|a| a.strip_prefix('=')) {
            text = Some(value.to_string());
        }
    }
    let variable = format!("{}_BENCH_{}", bench.to_uppercase(), name.to_uppercase());
    match text.or_else(|| std::env::var(&variable).ok()) {
        None => default,
        Some(text) => text
            .parse()
            .unwrap_or_else(|_| usage(bench, &format!("{flag}: not a count: {text:?}"))),
    }
}

/// Ends bench `bench` with a usage error.
pub fn usage(bench: &str, message: &str) -> ! {
    eprintln!("{bench} bench: {message}");
    exit(2)
}
