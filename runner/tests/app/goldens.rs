//! Goldens: a file passes when its transcript equals its golden, a
//! mismatch shows an annotated diff, `--rewrite` (or `REWRITE=1`, refused
//! under CI) writes only the goldens that changed, with LF line endings and
//! never an output the format cannot hold, and missing, orphan and
//! half-written goldens are reported.

use runner::app::{Env, Status};
use runner::cli::Options;
use std::fs;

use crate::common::{fake, last_line, Built, Project, BASIC, BASIC_GOLDEN};

#[test]
fn passing_file() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN);
    let (status, out) = p.run();
    assert_eq!(out, "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
    assert_eq!(status.exit_code(), 0);
}

#[test]
fn golden_mismatch_shows_an_annotated_diff() {
    let p = Project::new();
    let stale = BASIC_GOLDEN.replace("1 a\n2 b\n\nquery nosort", "1 a\n2 c\n\nquery nosort");
    p.scenario("basic.dd", BASIC).golden("basic.dd", &stale);
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    let expected = "\
FAIL ROOT/testdata/basic.dd: transcript differs from ROOT/goldens/basic.dd
    --- ROOT/goldens/basic.dd (golden)
    +++ ROOT/testdata/basic.dd (replayed)
    @@ -10,7 +10,7 @@ ROOT/testdata/basic.dd:7: query
     ----
     NULL NULL
     1 a
    -2 c
    +2 b
     
     query nosort
     SELECT rows
    reproduce: cargo run -p runner -- ROOT/testdata --filter basic.dd --run solo/workers=1/round-robin
0 passed, 1 failed
";
    assert_eq!(out, expected);
    // Not rewritten without --rewrite.
    assert_eq!(p.read_golden("basic.dd").unwrap(), stale);
}

#[test]
fn rewrite_creates_and_updates_goldens_and_leaves_equal_ones_alone() {
    let p = Project::new();
    p.scenario("new.dd", BASIC)
        .scenario("stale.dd", BASIC)
        .golden("stale.dd", "old\n")
        .scenario("same.dd", BASIC)
        .golden("same.dd", BASIC_GOLDEN);
    let same = p.root.join("goldens/same.dd");
    let before = fs::metadata(&same).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        out,
        "PASS ROOT/testdata/new.dd (wrote ROOT/goldens/new.dd)\n\
         PASS ROOT/testdata/same.dd\n\
         PASS ROOT/testdata/stale.dd (wrote ROOT/goldens/stale.dd)\n\
         rewrite: wrote 2 golden(s): ROOT/goldens/new.dd, ROOT/goldens/stale.dd\n\
         3 passed, 0 failed\n"
    );
    assert_eq!(p.read_golden("new.dd").unwrap(), BASIC_GOLDEN);
    assert_eq!(p.read_golden("stale.dd").unwrap(), BASIC_GOLDEN);
    assert_eq!(fs::metadata(&same).unwrap().modified().unwrap(), before);
    // No temporary files left in the goldens directory.
    let mut names: Vec<String> = fs::read_dir(p.root.join("goldens"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["new.dd", "same.dd", "stale.dd"]);
    // Now everything passes without rewriting.
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed, "{out}");
    // REWRITE=1 is the same as --rewrite.
    p.golden("same.dd", "changed\n");
    let env = Env {
        rewrite: Some("1".into()),
        ci: None,
        isolation: None,
        ..Env::default()
    };
    let (status, out) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status, Status::Passed, "{out}");
    assert!(
        out.contains("rewrite: wrote 1 golden(s): ROOT/goldens/same.dd\n"),
        "{out}"
    );
    assert_eq!(p.read_golden("same.dd").unwrap(), BASIC_GOLDEN);
}

#[test]
fn rewrite_is_refused_under_ci() {
    let p = Project::new();
    p.scenario("new.dd", BASIC);
    for (flag, rewrite_env) in [(true, None), (false, Some("1".to_string()))] {
        let options = Options {
            rewrite: flag,
            ..p.options()
        };
        let env = Env {
            rewrite: rewrite_env,
            ci: Some("true".into()),
            isolation: None,
            ..Env::default()
        };
        let (status, out) = p.run_with(&options, &env, &fake(false, Built::default()));
        assert_eq!(status.exit_code(), 2);
        assert!(
            matches!(&status, Status::Usage(m) if m.contains("refusing to rewrite goldens under CI=true")),
            "{status:?}"
        );
        assert_eq!(out, "", "nothing runs");
        assert_eq!(p.read_golden("new.dd"), None);
    }
    // Checking under CI is fine.
    let env = Env {
        rewrite: None,
        ci: Some("true".into()),
        isolation: None,
        ..Env::default()
    };
    let (status, _) = p.run_with(&p.options(), &env, &fake(false, Built::default()));
    assert_eq!(status, Status::Failed);
}

#[test]
fn missing_and_orphan_goldens_are_both_errors() {
    let p = Project::new();
    p.scenario("here.dd", BASIC)
        .golden("gone.dd", "tick\n----\nok\n");
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    assert_eq!(
        out,
        "FAIL ROOT/testdata/here.dd: no golden at ROOT/goldens/here.dd (a new scenario gets one with REWRITE=1)\n\
         \x20   reproduce: cargo run -p runner -- ROOT/testdata --filter here.dd --run solo/workers=1/round-robin\n\
         FAIL ROOT/goldens/gone.dd: golden without a scenario (no ROOT/testdata/gone.dd; delete the golden or restore the scenario)\n\
         0 passed, 2 failed\n"
    );
    // Rewrite creates the missing one but neither deletes nor accepts the orphan.
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert!(out.starts_with("PASS ROOT/testdata/here.dd (wrote ROOT/goldens/here.dd)\nFAIL ROOT/goldens/gone.dd: golden without a scenario"), "{out}");
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    assert!(p.read_golden("gone.dd").is_some());
}

#[test]
fn configs_skip_directives_and_blank_lines_use_the_doubled_form() {
    let p = Project::new();
    let scenario = "statement configs=(solo)\nCREATE fail\n----\n\nquery configs=shared\nSELECT sharing\n----\n\nquery\nSELECT blank\n----\n";
    p.scenario("c.dd", scenario);
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("c.dd").unwrap(),
        "statement configs=(solo)\nCREATE fail\n----\nerror: boom\n\nquery configs=shared\nSELECT sharing\n----\ntrue\n\nquery\nSELECT blank\n----\n----\n\n----\n----\n"
    );
    // The golden, given as a scenario, replays to itself.
    let q = Project::new();
    q.scenario("c.dd", &p.read_golden("c.dd").unwrap())
        .golden("c.dd", &p.read_golden("c.dd").unwrap());
    let (status, out) = q.run();
    assert_eq!(status, Status::Passed, "{out}");
}

#[test]
fn peeks_and_pending() {
    let p = Project::new();
    p.scenario("p.dd", "peek index=i name=p\n----\n\nawait name=p\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(
        p.read_golden("p.dd").unwrap(),
        "peek index=i name=p\n----\nissued\n\nawait name=p\n----\npending: worker 0 is paused\n"
    );
}

/// A row `----` as the last line of an output would close the doubled
/// block early: the golden written used to be unparsable. Now the file fails
/// with the directive's line, and rewrite writes nothing.
#[test]
fn an_output_the_format_cannot_hold_fails_the_file_and_is_not_written() {
    let p = Project::new();
    p.scenario("d.dd", "tick\n----\n\nquery\nSELECT dashes\n----\n");
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Failed);
    assert_eq!(
        out,
        "FAIL ROOT/testdata/d.dd: 1 output(s) cannot be written in the file's format; no golden at ROOT/goldens/d.dd (not created: the file has other failures)\n\
         \x20   ROOT/testdata/d.dd:4: the output has a `----` line last or two in a row, which would end its block early\n\
         \x20   reproduce: cargo run -p runner -- ROOT/testdata --filter d.dd --run solo/workers=1/round-robin\n\
         rewrite: no golden changed\n\
         0 passed, 1 failed\n"
    );
    assert!(p.read_golden("d.dd").is_none());
}

/// A checkout with `core.autocrlf` turns both files into CRLF: the file used
/// to fail on invisible differences, and rewrite wrote mixed line endings.
#[test]
fn crlf_files_are_read_as_lf_and_goldens_written_with_lf() {
    let crlf = |s: &str| s.replace('\n', "\r\n");
    let p = Project::new();
    p.scenario("a/basic.dd", &crlf(BASIC))
        .golden("a/basic.dd", &crlf(BASIC_GOLDEN));
    let (status, out) = p.run();
    assert_eq!(out, "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
    // A new CRLF scenario gets an LF golden, which it then passes against.
    p.scenario("a/new.dd", &crlf(BASIC));
    let (status, _) = p.rewrite();
    assert_eq!(status, Status::Passed);
    assert_eq!(p.read_golden("a/new.dd").as_deref(), Some(BASIC_GOLDEN));
    assert_eq!(p.run().0, Status::Passed);
}

/// A rewrite killed between writing its temporary file and renaming it left
/// the hidden file beside the goldens, never reported (`git add goldens/`
/// picked it up). Now a check names it and a rewrite removes it; a live
/// rewrite's temporary file (here this test's own) is neither: sweeping it
/// once made that other rewrite fail "cannot write ...: No such file".
#[test]
fn temporary_files_of_an_interrupted_rewrite_are_reported_and_removed() {
    use runner::process::Identity;
    let me = Identity::current();
    // This process's pid with another start time: a process that is gone.
    let gone = Identity {
        start: Some(me.start.unwrap_or(0) + 1),
        ..me
    };
    let stray = format!("a/.basic.dd.{gone}.0.tmp");
    let live = format!("a/.other.dd.{me}.0.tmp");
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN)
        .golden(&stray, "# A scen")
        .golden(&live, "# being written");
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed);
    assert_eq!(
        out,
        format!(
            "warning: ROOT/goldens/{stray} is a temporary file of an interrupted rewrite; --rewrite removes it\n\
             PASS ROOT/testdata/a/basic.dd\n\
             1 passed, 0 failed\n"
        )
    );
    let (status, out) = p.rewrite();
    assert_eq!(status, Status::Passed);
    assert!(
        out.starts_with(&format!(
            "warning: removed ROOT/goldens/{stray}: a temporary file of an interrupted rewrite\n"
        )),
        "{out}"
    );
    assert!(p.read_golden(&stray).is_none());
    assert_eq!(p.read_golden(&live).as_deref(), Some("# being written"));
}

/// A golden that is a directory once reported both "cannot read" and "no
/// golden ... (a new scenario gets one with REWRITE=1)"; it is one error,
/// and a rewrite does not try to write over it.
#[test]
fn a_golden_that_cannot_be_read_is_one_error() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC);
    fs::create_dir_all(p.root.join("goldens/a/basic.dd")).unwrap();
    for (status, out) in [p.run(), p.rewrite()] {
        assert_eq!(status, Status::Failed);
        assert!(
            out.starts_with(
                "FAIL ROOT/testdata/a/basic.dd: ROOT/goldens/a/basic.dd: cannot read: Is a directory (os error 21)\n"
            ),
            "{out}"
        );
        assert!(!out.contains("no golden at"), "{out}");
        assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
    }
}
