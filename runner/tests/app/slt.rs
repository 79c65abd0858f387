//! sqllogictest files: completed as the `sqllogictest` crate completes
//! them (sort modes, hashing, types), their mismatches in the golden diff,
//! divergence and configuration labels, includes run in place that must
//! hold, and records the engine cannot honour refused.

use runner::app::{Env, Status};
use runner::cli::Options;

use crate::common::{fake, Built, Project};

const SLT: &str = "\
# A sqllogictest scenario.

statement ok
CREATE TABLE t (a int)

statement error boom
CREATE fail

statement error
CREATE fail

query IT rowsort
SELECT rows
----

query IT nosort
SELECT rows
----

query T valuesort
SELECT rows
----

skipif shared
query B
SELECT sharing
----

onlyif shared
query B
SELECT sharing
----

onlyif postgres
query I
SELECT anything
----

query T
SELECT blank
----

hash-threshold 3

query IT rowsort
SELECT rows
----

query I
SELECT nothing
----
";

const SLT_GOLDEN: &str = "\
# A sqllogictest scenario.

statement ok
CREATE TABLE t (a int)

statement error boom
CREATE fail

statement error
CREATE fail

query IT rowsort
SELECT rows
----
1 a
2 b
NULL NULL

query IT nosort
SELECT rows
----
2 b
1 a
NULL NULL

query IT valuesort
SELECT rows
----
1
2
NULL
NULL
a
b

skipif shared
query B
SELECT sharing
----
false

onlyif shared
query B
SELECT sharing
----
true

onlyif postgres
query I
SELECT anything
----

query T
SELECT blank
----
(empty)

hash-threshold 3

query IT rowsort
SELECT rows
----
6 values hashing to 7ed3d5e4e8ea8fd6a5c8b2c8de5e0b2b

query I
SELECT nothing
----
";

/// The golden above with the real md5 of its hashed result.
fn slt_golden() -> String {
    use md5::{Digest, Md5};
    let hash = format!("{:x}", Md5::digest(b"1\na\n2\nb\nNULL\nNULL\n"));
    SLT_GOLDEN.replace("7ed3d5e4e8ea8fd6a5c8b2c8de5e0b2b", &hash)
}

#[test]
fn slt_files_are_completed_like_the_crate_completes_them() {
    let p = Project::new();
    p.scenario("s/a.slt", SLT);
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(p.read_golden("s/a.slt").unwrap(), slt_golden());
    // The golden replays to itself, byte for byte, and passes.
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed, "{out}");
    let q = Project::new();
    q.scenario("a.slt", &slt_golden())
        .golden("a.slt", &slt_golden());
    let (status, out) = q.run();
    assert_eq!(status, Status::Passed, "{out}");
}

#[test]
fn slt_mismatches_show_in_the_golden_diff() {
    let p = Project::new();
    let wrong = slt_golden()
        .replace("statement error boom\n", "statement error bang\n")
        .replace(
            "1 a\n2 b\nNULL NULL\n\nquery IT nosort",
            "1 a\n2 x\nNULL NULL\n\nquery IT nosort",
        );
    p.scenario("a.slt", &wrong).golden("a.slt", &wrong);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    assert!(
        out.contains("FAIL ROOT/testdata/a.slt: transcript differs from ROOT/goldens/a.slt\n"),
        "{out}"
    );
    assert!(
        out.contains("    -statement error bang\n    +statement error boom\n"),
        "{out}"
    );
    assert!(out.contains("    -2 x\n    +2 b\n"), "{out}");
    assert!(
        out.contains("@@ -3,7 +3,7 @@ ROOT/testdata/a.slt:6: statement error bang"),
        "{out}"
    );
    // A wrong type string is corrected to the result's types.
    let p = Project::new();
    p.scenario("t.slt", "query I\nSELECT rows\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("t.slt").unwrap(),
        "query IT\nSELECT rows\n----\n2 b\n1 a\nNULL NULL\n"
    );
}

#[test]
fn slt_divergence_and_labels() {
    let p = Project::new();
    p.scenario("d.slt", "query B\nSELECT sharing\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("FAIL ROOT/testdata/d.slt: runs diverged at ROOT/testdata/d.slt:1 (solo/workers=1/round-robin vs shared/workers=1/round-robin)"), "{out}");
    assert!(out.contains("    -false\n    +true\n"), "{out}");
    assert!(out.contains("    reproduce: cargo run -p runner -- ROOT/testdata --filter d.slt --run solo/workers=1/round-robin --run shared/workers=1/round-robin\n"), "{out}");
    // A record conditioned on configurations only must run under one of the file's.
    let p = Project::new();
    p.scenario(
        "n.slt",
        "# configs: solo\n\nonlyif shared\nstatement ok\nCREATE TABLE t (a int)\n",
    );
    let (_, out) = p.run();
    assert!(out.starts_with("FAIL ROOT/testdata/n.slt: ROOT/testdata/n.slt:4: this directive runs under none of the file's configurations"), "{out}");
}

#[test]
fn slt_includes_run_in_place_and_must_hold() {
    let p = Project::new();
    p.scenario("inc/setup.slt.inc", "statement ok\nCREATE TABLE t (a int)\n\nquery IT rowsort\nSELECT rows\n----\n1 a\n2 b\nNULL NULL\n");
    p.scenario(
        "inc/main.slt",
        "include setup.slt.inc\n\nquery I\nSELECT workers\n----\n",
    );
    let built = Built::default();
    let options = Options {
        rewrite: true,
        filter: Some("main".into()),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, built.clone()));
    // Runs diverge on the worker count; the included records ran first.
    assert_eq!(status, Status::Failed, "{out}");
    assert!(
        out.contains("runs diverged at ROOT/testdata/inc/main.slt:3"),
        "{out}"
    );
    // An included record whose output differs from what its file says fails the file.
    p.scenario("inc/setup.slt.inc", "statement ok\nCREATE fail\n");
    p.scenario("inc/main.slt", "include setup.slt.inc\n");
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status, Status::Failed, "{out}");
    assert!(out.contains("1 included record(s) do not hold"), "{out}");
    assert!(out.contains("    ROOT/testdata/inc/setup.slt.inc:1: `statement ok` does not hold (its output would make it `statement error boom`)"), "{out}");
    // A missing include is a file error with its line.
    p.scenario("inc/main.slt", "\ninclude nothing-here.inc\n");
    let (_, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert!(out.starts_with("FAIL ROOT/testdata/inc/main.slt: ROOT/testdata/inc/main.slt:2: include `nothing-here.inc` matches no file"), "{out}");
}

#[test]
fn slt_records_the_engine_cannot_honour_are_errors() {
    let p = Project::new();
    for (name, text, expected) in [
        (
            "count.slt",
            "\nstatement count 1\nINSERT INTO t VALUES (1)\n",
            "count.slt:2: `statement count` is not supported",
        ),
        (
            "system.slt",
            "system ok\necho hi\n",
            "system.slt:1: `system` is not supported",
        ),
        (
            "control.slt",
            "# c\ncontrol resultmode valuewise\n",
            "control.slt:2: `control` is not supported",
        ),
        (
            "types.slt",
            "query\nSELECT 1\n----\n",
            "types.slt:1: `query` needs a type string",
        ),
        (
            "bad.slt",
            "query X\nSELECT 1\n----\n",
            "bad.slt:1: invalid type character: 'X' in type string",
        ),
    ] {
        p.scenario(name, text);
        let options = Options {
            filter: Some(name.into()),
            ..p.options()
        };
        let (_, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
        assert!(
            out.starts_with(&format!(
                "FAIL ROOT/testdata/{name}: ROOT/testdata/{expected}"
            )),
            "{out}"
        );
    }
}
