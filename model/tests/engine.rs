//! The model against the live engine, not only the goldens: scenarios are
//! replayed by the runner on the real engine (solo, shared and
//! shared-delta, two workers) and every claim must hold for every run.
//! With the engine's mutation `join-errs-per-path` (built with `--features
//! engine/mutations`, run with `ENGINE_MUTATION=join-errs-per-path`), each
//! path of a delta join emits the errors of the inputs it looks up; the
//! model must then disagree with the delta run on the error counts (the
//! linear runs are unaffected).

use model::check::check_tally;
use runner::format::Script;
use runner::run::replay::replay;
use runner::run::target;
use runner::suite::matrix::Run;
use runner::suite::Schedule;
use std::path::Path;

/// The model's mismatches with each run of `file` (under `testdata/`).
fn mismatches(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("the scenario exists");
    let script = Script::parse(&path, file, &text).expect("the scenario parses");
    let mut found = vec![];
    let configurations = [
        ("solo", false, false),
        ("shared", true, false),
        ("shared-delta", true, true),
    ];
    for (configuration, sharing, delta_joins) in configurations {
        let run = Run {
            configuration: configuration.into(),
            sharing,
            delta_joins,
            workers: 2,
            schedule: Schedule::RoundRobin,
        };
        let record = replay(&script, &run, &target::engine).expect("no panic");
        if let Err(m) = check_tally(&script, &record.outputs) {
            found.push(format!("{file} under {run}: {m}"));
        }
    }
    found
}

/// Whether this run asks for the engine's mutation `join-errs-per-path`
/// (`.ci/mutations` asks only of an engine built with its `mutations`).
fn join_errs_per_path() -> bool {
    std::env::var_os("ENGINE_MUTATION").is_some_and(|m| m == "join-errs-per-path")
}

#[test]
fn live_engine_agrees_with_the_model_over_the_suite() {
    // Under the mutation this test fails by design (the two-way join counts
    // its errors per path too); it stops here so that its failure does not
    // reach the other test through the runner's process-wide panic capture.
    if join_errs_per_path() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let mut found = vec![];
    for dir in std::fs::read_dir(&root).expect("testdata") {
        let dir = dir.expect("an entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("a directory") {
            let f = f.expect("an entry").path();
            if f.extension().is_some_and(|e| e == "dd") {
                let relative = f.strip_prefix(&root).expect("under testdata");
                found.extend(mismatches(&relative.display().to_string()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_model_catches_join_errors_counted_per_path() {
    let found = mismatches("sharing/three_way_join_errors.dd");
    if join_errs_per_path() {
        // The delta join counts 9 (each of three inputs' errors once per
        // path) where each input's error once is 3; linear is unaffected.
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("shared-delta")
                && found[0].contains("u11 3")
                && found[0].contains("u11 9"),
            "{found:?}"
        );
    } else {
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
