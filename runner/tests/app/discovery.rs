//! Which files are checked, and a file that cannot be: links that lead
//! nowhere are skipped with a warning, `--filter` and `--goldens` choose
//! the files, and a malformed file or header, or a `configs=` naming an
//! unknown configuration, fails that file alone.

use runner::app::{Env, Status};
use runner::cli::{Options, ReportFormat};

use crate::common::{fake, write, Built, Project, BASIC, BASIC_GOLDEN};

/// An editor's lock file (`.#name.dd`, a dangling link) and a link loop in
/// either tree used to abort the whole suite before anything ran.
#[cfg(unix)]
#[test]
fn links_that_lead_nowhere_are_skipped_with_a_warning() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC)
        .golden("a/basic.dd", BASIC_GOLDEN);
    symlink("user@host.1234", p.root.join("testdata/a/.#basic.dd")).unwrap();
    symlink("..", p.root.join("goldens/a/loop")).unwrap();
    let json = Options {
        format: ReportFormat::Json,
        ..p.options()
    };
    let (_, out) = p.run_with(&json, &Env::default(), &fake(false, Built::default()));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["warnings"][0],
        "skipped ROOT/testdata/a/.#basic.dd: an editor's lock file"
    );
    let (status, out) = p.run();
    assert_eq!(
        out,
        "warning: skipped ROOT/testdata/a/.#basic.dd: an editor's lock file\n\
         warning: skipped ROOT/goldens/a/loop: a symbolic link loop\n\
         PASS ROOT/testdata/a/basic.dd\n\
         1 passed, 0 failed\n"
    );
    assert_eq!(status, Status::Passed);
}

#[test]
fn a_malformed_file_fails_alone() {
    let p = Project::new();
    p.scenario("bad.dd", "tick\n----\n\npeek as-of=3\n----\n")
        .scenario("bad_header.dd", "# workers: 1\n# seedz: 2\ntick\n----\n")
        .scenario("good.dd", "tick\n----\n")
        .golden("good.dd", "tick\n----\nok\n")
        .golden("bad.dd", "whatever\n");
    let (status, out) = p.run();
    assert_eq!(status, Status::Failed);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "FAIL ROOT/testdata/bad.dd: ROOT/testdata/bad.dd:4: `peek` requires argument `index=<index>`");
    // No run started: the whole file is the reproduction.
    assert_eq!(
        lines[1],
        "    reproduce: cargo run -p runner -- ROOT/testdata --filter bad.dd"
    );
    assert!(lines[2].starts_with("FAIL ROOT/testdata/bad_header.dd: ROOT/testdata/bad_header.dd:2: unknown header key `seedz`"), "{out}");
    assert!(
        lines[2].ends_with(
            "; no golden at ROOT/goldens/bad_header.dd (a new scenario gets one with REWRITE=1)"
        ),
        "{out}"
    );
    assert_eq!(lines[4], "PASS ROOT/testdata/good.dd");
    assert_eq!(lines[5], "1 passed, 2 failed");
}

#[test]
fn filter_and_goldens_dir() {
    let p = Project::new();
    p.scenario("x/one.dd", "tick\n----\n")
        .scenario("y/two.dd", "tick\n----\n")
        .golden("x/one.dd", "tick\n----\nok\n");
    let options = Options {
        filter: Some("x/".into()),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(out, "PASS ROOT/testdata/x/one.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);

    let options = Options {
        filter: Some("nothing-matches".into()),
        ..p.options()
    };
    let (status, _) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(status.exit_code(), 2);

    let other = p.root.join("elsewhere");
    write(&other.join("y/two.dd"), "tick\n----\nok\n");
    let options = Options {
        filter: Some("two".into()),
        goldens: Some(other),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(out, "PASS ROOT/testdata/y/two.dd\n1 passed, 0 failed\n");
    assert_eq!(status, Status::Passed);
}

#[test]
fn unknown_configuration_in_configs_is_a_file_error() {
    let p = Project::new();
    p.scenario("u.dd", "\ntick configs=(solo,turbo)\n----\n");
    let (_, out) = p.run();
    assert!(out.starts_with("FAIL ROOT/testdata/u.dd: ROOT/testdata/u.dd:2: `configs=` names `turbo`, which suite.yaml does not define (it defines: solo, shared)"), "{out}");
}

/// One unreadable subdirectory of `testdata/` or `goldens/` once stopped
/// the whole suite (exit 2 before any file ran). Now each fails, named,
/// and the rest runs. Run as an unprivileged user (`nobody` when the test
/// runs as root, whom permissions do not stop).
#[cfg(target_os = "linux")]
#[test]
fn an_unreadable_subdirectory_fails_alone() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let p = Project::new();
    let (scenario, golden) = (
        "statement\nCREATE TABLE t (a int)\n----\n",
        "statement\nCREATE TABLE t (a int)\n----\nok\n",
    );
    p.scenario("a.dd", scenario).golden("a.dd", golden);
    p.scenario("locked/b.dd", scenario);
    p.scenario("sealed/c.dd", scenario)
        .golden("sealed/c.dd", golden);
    for entry in walkdir::WalkDir::new(&p.root) {
        let entry = entry.unwrap();
        let mode = if entry.file_type().is_dir() {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    for dir in ["testdata/locked", "goldens/sealed"] {
        std::fs::set_permissions(p.root.join(dir), std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_runner"));
    command.arg(p.root.join("testdata"));
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            if libc::geteuid() == 0
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(65534) != 0
                    || libc::setuid(65534) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    for dir in ["testdata/locked", "goldens/sealed"] {
        std::fs::set_permissions(p.root.join(dir), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let root = p.root.display().to_string();
    let stdout = String::from_utf8_lossy(&out.stdout).replace(&root, "ROOT");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let fails: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("FAIL") || l.starts_with("PASS"))
        .collect();
    assert_eq!(
        fails,
        [
            "PASS ROOT/testdata/a.dd",
            "FAIL ROOT/testdata/sealed/c.dd: ROOT/goldens/sealed/c.dd: cannot read: Permission denied (os error 13)",
            "FAIL ROOT/testdata/locked: cannot read this directory: Permission denied (os error 13) (the scenario files under it were not checked)",
            "FAIL ROOT/goldens/sealed: cannot read this directory: Permission denied (os error 13) (the goldens under it cannot be read, so their scenarios fail)",
        ],
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 3 failed\n"), "{stdout}");
}

/// A UTF-8 byte-order mark at the start of a scenario once gave "expected
/// a directive name at the start of `# ...`" (the mark invisible), and in
/// suite.yaml "missing field `workers` at line 1 column 2" though it was
/// there. Both are read as if the mark were not there.
#[test]
fn a_byte_order_mark_is_not_text() {
    let p = Project::new();
    let suite = p.root.join("testdata/suite.yaml");
    let yaml = std::fs::read_to_string(&suite).unwrap();
    std::fs::write(&suite, format!("\u{feff}{yaml}")).unwrap();
    p.scenario("a/basic.dd", &format!("\u{feff}{BASIC}"))
        .golden("a/basic.dd", BASIC_GOLDEN);
    let (status, out) = p.run();
    assert_eq!(status, Status::Passed, "{out}");
    assert_eq!(out, "PASS ROOT/testdata/a/basic.dd\n1 passed, 0 failed\n");
}

/// `--goldens` naming a regular file failed every file ("cannot read");
/// it is one usage error.
#[test]
fn goldens_that_are_a_file_are_one_usage_error() {
    let p = Project::new();
    p.scenario("a/basic.dd", BASIC);
    let file = p.root.join("goldens.txt");
    std::fs::write(&file, "").unwrap();
    let options = Options {
        goldens: Some(file),
        ..p.options()
    };
    let (status, out) = p.run_with(&options, &Env::default(), &fake(false, Built::default()));
    assert_eq!(out, "");
    let root = p.root.display();
    assert_eq!(
        status,
        Status::Usage(format!(
            "{root}/goldens.txt: the goldens directory is not a directory"
        ))
    );
}
