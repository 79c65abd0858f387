//! The runs of a file: every run of the matrix gets a fresh engine, and a
//! file fails across its runs when they diverge (reported before the
//! golden, naming the group the golden matches), when a configuration's
//! witness fails, or when the engine panics (failing only that file); each
//! of these blocks a rewrite.

use engine::Config;
use runner::app::{Env, Status};
use runner::cli::Options;

use crate::common::{fake, last_line, Built, Project, BASIC};

#[test]
fn every_run_of_the_matrix_gets_a_fresh_engine() {
    let p = Project::new();
    p.scenario("a.dd", "tick\n----\n")
        .golden("a.dd", "tick\n----\nok\n");
    p.scenario(
        "b.dd",
        "# configs: shared\n# workers: 3\n# seeds: 9, round-robin\n\ntick\n----\n",
    )
    .golden(
        "b.dd",
        "# configs: shared\n# workers: 3\n# seeds: 9, round-robin\n\ntick\n----\nok\n",
    );
    let built = Built::default();
    let (status, out) = p.run_with(&p.options(), &Env::default(), &fake(false, built.clone()));
    assert_eq!(status, Status::Passed, "{out}");
    let configs = built.0.lock().unwrap().clone();
    let c = |sharing, workers, seed| Config {
        sharing,
        workers,
        seed,
        joins: Default::default(),
    };
    assert_eq!(
        configs,
        [
            c(false, 1, None),
            c(false, 1, Some(7)),
            c(false, 2, None),
            c(false, 2, Some(7)),
            c(true, 1, None),
            c(true, 1, Some(7)),
            c(true, 2, None),
            c(true, 2, Some(7)),
            c(true, 3, Some(9)),
            c(true, 3, None),
        ]
    );
}

#[test]
fn divergence_is_reported_before_the_golden_and_blocks_rewrite() {
    let p = Project::new();
    let scenario = "tick\n----\n\nquery\nSELECT sharing\n----\n\nquery\nSELECT workers\n----\n";
    p.scenario("split.dd", scenario)
        .golden("split.dd", "stale\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "FAIL ROOT/testdata/split.dd: runs diverged at ROOT/testdata/split.dd:4 (solo/workers=1/round-robin vs shared/workers=1/round-robin); transcript differs from ROOT/goldens/split.dd (not rewritten: the file has other failures)"
    );
    assert!(out.contains("    first difference at ROOT/testdata/split.dd:4: query; 2 directive(s) differ, at line(s) 4, 8\n"), "{out}");
    assert!(out.contains("    group 1 (4 run(s)): solo/workers=1/round-robin, solo/workers=1/seed=7, solo/workers=2/round-robin, solo/workers=2/seed=7\n"), "{out}");
    assert!(out.contains("    group 2 (4 run(s)): shared/workers=1/round-robin, shared/workers=1/seed=7, shared/workers=2/round-robin, shared/workers=2/seed=7\n"), "{out}");
    assert!(out.contains("    --- solo/workers=1/round-robin\n    +++ shared/workers=1/round-robin\n    @@ -5,7 +5,7 @@ ROOT/testdata/split.dd:4: query\n"), "{out}");
    assert!(out.contains("    -false\n    +true\n"), "{out}");
    // The divergence comes before the golden diff.
    let div = out.find("first difference").unwrap();
    let gold = out.find("(golden)").unwrap();
    assert!(div < gold, "{out}");
    assert_eq!(p.read_golden("split.dd").unwrap(), "stale\n");
    assert_eq!(last_line(&out), "0 passed, 1 failed");
}

#[test]
fn divergence_names_the_group_that_matches_the_golden() {
    let p = Project::new();
    let scenario = "query\nSELECT workers\n----\n";
    p.scenario("w.dd", scenario)
        .golden("w.dd", "query\nSELECT workers\n----\n2\n");
    let (_, out) = p.run();
    assert!(out.contains("    group 2 (4 run(s), matches the golden): solo/workers=2/round-robin, solo/workers=2/seed=7, shared/workers=2/round-robin, shared/workers=2/seed=7\n"), "{out}");
}

#[test]
fn a_panic_fails_only_its_file() {
    let p = Project::new();
    p.scenario("a_panics.dd", "tick\n----\n\nquery\nSELECT panic\n----\n")
        .scenario("b_fine.dd", "tick\n----\n")
        .golden("b_fine.dd", "tick\n----\nok\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "FAIL ROOT/testdata/a_panics.dd: engine panicked under solo/workers=1/round-robin; no golden at ROOT/goldens/a_panics.dd (not created: the file has other failures)"
    );
    assert_eq!(
        lines.next().unwrap(),
        "    at ROOT/testdata/a_panics.dd:4: query"
    );
    let panic_line = lines.next().unwrap();
    assert!(
        panic_line.starts_with(
            "    panic: engine exploded in Config { sharing: false, workers: 1, seed: None, joins: Linear } (at "
        ),
        "{panic_line}"
    );
    // The failure names the run that panicked and how to replay just that run.
    assert_eq!(
        lines.next().unwrap(),
        "    reproduce: cargo run -p runner -- ROOT/testdata --filter a_panics.dd --run solo/workers=1/round-robin"
    );
    assert_eq!(lines.next().unwrap(), "PASS ROOT/testdata/b_fine.dd");
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    assert_eq!(p.read_golden("a_panics.dd"), None);
}

#[test]
fn a_failed_witness_names_the_configuration_and_blocks_rewrite() {
    let p = Project::new();
    p.scenario("w.dd", BASIC);
    let options = Options {
        rewrite: true,
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(true, Built::default()));
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("FAIL ROOT/testdata/w.dd: witness failed under shared (4 of 8 runs); no golden at ROOT/goldens/w.dd (not created: the file has other failures)\n"), "{out}");
    assert!(out.contains("    shared/workers=1/round-robin: sharing is on and 3 directive(s) returned rows of tables, views or indexes, but not every read was served through a shared import (shared_reads=0, local_reads=3, published=0, logging_reads=0, constant_reads=0; expected shared_reads > 0 and local_reads = 0)\n"), "{out}");
    assert_eq!(p.read_golden("w.dd"), None);
}
