//! The judge of a foreign corpus, end to end: the `runner` binary and the
//! reference engine over `runner/tests/foreign/`, two files of the
//! project's own making in Materialize's dialect whose verdicts are known
//! record by record (each file's comments say why). A judge that counted
//! a disagreement as agreed, unsupported or cascaded, or a refusal as
//! anything but unsupported, changes these counts.

use std::path::Path;

#[test]
fn a_foreign_corpus_is_judged_record_by_record() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/foreign");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
        .arg(&corpus)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let root = corpus.display().to_string();
    let stdout = stdout.replace(&root, "CORPUS");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let expected = [
        "PASS CORPUS/judged.slt (agreed 8, unsupported 3, cascaded 3, wrong 0)",
        "FAIL CORPUS/wrong.slt: 7 wrong record(s) (agreed 3, unsupported 0, cascaded 0, wrong 7)",
        "    CORPUS/wrong.slt:15: query I rowsort: 2 value(s) [\"1\", \"2\"]; expected 2 [\"1\", \"3\"]",
        "    CORPUS/wrong.slt:21: query I: 1 value(s) [\"2\"]; expected 1 [\"3\"]",
        "    CORPUS/wrong.slt:26: query I: failed: unknown catalog item 'nope'",
        "    CORPUS/wrong.slt:31: query error unknown catalog item: returned rows; expected an error `unknown catalog item`",
        "    CORPUS/wrong.slt:34: query error division by zero: error `unknown catalog item 'nope'` does not match `division by zero`",
        "    CORPUS/wrong.slt:37: query I colnames: column names `b`; expected `c`",
        "    CORPUS/wrong.slt:43: statement ok: failed: unknown catalog item 'nope'",
        "corpus: 2 file(s), 24 record(s) judged: agreed 11, unsupported 3, cascaded 3, wrong 7",
        "precision (agreed / answered): 61.1% (11 of 18)",
        "coverage (agreed / judged): 45.8% (11 of 24)",
        "         3  type json",
        "         2  SET cluster to a value other than quickstart",
        "         1  an expected error that is not a regex",
        "1 passed, 1 failed",
    ];
    let lines: Vec<&str> = stdout.lines().collect();
    for line in expected {
        assert!(lines.contains(&line), "no line `{line}` in:\n{stdout}");
    }
}
