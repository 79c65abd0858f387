//! Rewriting goldens: when it is allowed, and writing them atomically.
//!
//! A check proposes the golden it would write ([`FileReport::proposed`]);
//! only the process that runs the suite writes it ([`apply`]), and not once
//! the run is cancelled, so that a child left running by a killed runner
//! could never change a golden after the cancel.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::site::{Kind, Site};
use super::verdict::Verdict;
use super::{FileReport, Problem};
use crate::format::EXTENSIONS;
use crate::process::Identity;

/// Whether this invocation rewrites goldens.
///
/// `--rewrite` or `REWRITE=1` (or `true`) asks for it; `REWRITE` unset, empty,
/// `0` or `false` does not; any other `REWRITE` value is a usage error. Asking
/// while `CI` is `true` (or `1`) is refused: CI checks goldens, it never
/// writes them.
pub fn requested(
    flag: bool,
    rewrite_env: Option<&str>,
    ci_env: Option<&str>,
) -> Result<bool, String> {
    let env = match rewrite_env.map(str::trim) {
        None | Some("") | Some("0") => false,
        Some(v) if v.eq_ignore_ascii_case("false") => false,
        Some("1") => true,
        Some(v) if v.eq_ignore_ascii_case("true") => true,
        Some(v) => return Err(format!("REWRITE={v}: expected REWRITE=1 (or 0)")),
    };
    let wanted = flag || env;
    // CI systems spell it `true`, `1`, `yes` or their own name: any value
    // but an explicit no counts, so a rewrite never slips through on CI.
    let ci = ci_env.map(str::trim).filter(|v| {
        !v.is_empty()
            && !["0", "false", "no", "off"]
                .iter()
                .any(|no| v.eq_ignore_ascii_case(no))
    });
    if let (true, Some(ci)) = (wanted, ci) {
        return Err(format!(
            "refusing to rewrite goldens under CI={ci}: rewrite them locally, review `git diff goldens/`, and commit them"
        ));
    }
    Ok(wanted)
}

/// Writes the golden `report` proposes to `golden` (shown as `shown`), if
/// it proposes one and the run is still `live` when the golden would be
/// renamed into place; the report then says it wrote it, or fails with why
/// it could not.
pub fn apply(report: &mut FileReport, golden: &Path, shown: &str, live: &dyn Fn() -> bool) {
    let Some(text) = report.proposed.take() else {
        return;
    };
    match write_if_changed(golden, &text, live) {
        Ok(_) => report.written = Some(shown.to_string()),
        Err(e) => {
            let summary = format!("cannot write {shown}: {e}");
            for (_, verdict) in &mut report.configurations {
                *verdict = match std::mem::replace(verdict, Verdict::Passed) {
                    Verdict::Failed(mut reasons) => {
                        reasons.push(summary.clone());
                        Verdict::Failed(reasons)
                    }
                    _ => Verdict::Failed(vec![summary.clone()]),
                };
            }
            report.fail(Problem::new(summary, ""), Site::file(Kind::NotWritten));
        }
    }
}

/// Writes `contents` to `path` atomically (a temporary file in the same
/// directory, synced, then renamed over it), creating parent directories.
/// Returns false, touching nothing, when the file already has these bytes.
/// A golden that is a symbolic link is written through (its target is
/// replaced, the link stays), and an existing file keeps its permissions.
/// `live` is asked last, just before the rename: if it says no (the run
/// was cancelled), the temporary file is removed and nothing changes.
pub fn write_if_changed(
    path: &Path,
    contents: &str,
    live: &dyn Fn() -> bool,
) -> std::io::Result<bool> {
    if fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(false);
    }
    let target;
    let path = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            target = fs::canonicalize(path)?;
            target.as_path()
        }
        _ => path,
    };
    let permissions = fs::metadata(path).ok().map(|m| m.permissions());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut attempt = 0u32;
    let me = Identity::current();
    let (tmp, mut file) = loop {
        let tmp = dir.join(temp_name(&name, &me, attempt));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1
            }
            Err(e) => return Err(e),
        }
    };
    let result = file
        .write_all(contents.as_bytes())
        .and_then(|()| match &permissions {
            Some(p) => file.set_permissions(p.clone()),
            None => Ok(()),
        })
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            match live() {
                true => fs::rename(&tmp, path),
                false => Err(std::io::Error::other("the run was cancelled")),
            }
        });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| true)
}

/// The temporary file a rewrite of `name` writes first: hidden, beside it,
/// named by its writer (pid and start time, so that a later process with
/// the same pid is not taken for it) and an attempt number.
fn temp_name(name: &str, writer: &Identity, attempt: u32) -> String {
    format!(".{name}.{writer}.{attempt}.tmp")
}

/// The writer of `file_name`, if it is one of [`temp_name`]'s (or of the
/// names before 2026-12-06, `.NAME.PID.N.tmp`, whose writer is its pid).
fn temp_writer(file_name: &str) -> Option<Identity> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = inner.rsplitn(3, '.');
    let (attempt, writer, name) = (parts.next()?, parts.next()?, parts.next()?);
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let scenario = EXTENSIONS.iter().any(|ext| {
        name.strip_suffix(ext)
            .is_some_and(|n| n.ends_with('.') && n.len() > 1)
    });
    (number(attempt) && scenario)
        .then(|| Identity::parse(writer))
        .flatten()
}

/// The temporary files under `goldens` of rewrites that were interrupted:
/// their writer is gone (a killed rewrite leaves its file between creating
/// and renaming it). A live rewrite's file is not one: sweeping it made
/// that rewrite fail "cannot write ...: No such file or directory".
pub fn stray_temps(goldens: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(goldens)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| temp_writer(&e.file_name().to_string_lossy()).is_some_and(|w| !w.is_alive()))
        .map(|e| e.into_path())
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_and_env() {
        assert_eq!(requested(false, None, None), Ok(false));
        assert_eq!(requested(true, None, None), Ok(true));
        assert_eq!(requested(false, Some("1"), None), Ok(true));
        assert_eq!(requested(false, Some("true"), Some("false")), Ok(true));
        assert_eq!(requested(false, Some("0"), None), Ok(false));
        assert_eq!(requested(false, Some(""), Some("true")), Ok(false));
        assert!(requested(false, Some("yes please"), None).is_err());
    }

    #[test]
    fn refused_under_ci() {
        let e = requested(true, None, Some("true")).unwrap_err();
        assert!(
            e.starts_with("refusing to rewrite goldens under CI=true"),
            "{e}"
        );
        assert!(requested(false, Some("1"), Some("true")).is_err());
        for ci in ["1", "yes", "on", "TRUE", "woodpecker"] {
            let e = requested(true, None, Some(ci)).unwrap_err();
            assert!(
                e.starts_with(&format!("refusing to rewrite goldens under CI={ci}:")),
                "{e}"
            );
        }
        for not_ci in ["", " ", "0", "false", "No", "OFF"] {
            assert_eq!(
                requested(true, None, Some(not_ci)),
                Ok(true),
                "CI={not_ci:?}"
            );
        }
        // Not asking is fine under CI.
        assert_eq!(requested(false, None, Some("true")), Ok(false));
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_atomically_and_only_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/dir/x.dd");
        assert!(write_if_changed(&path, "tick\n----\nok\n", &|| true).unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "tick\n----\nok\n");
        // No temporary file is left behind.
        assert_eq!(entries(&dir.path().join("sub/dir")), ["x.dd"]);

        // Same bytes: not rewritten (the modification time stays).
        let before = fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!write_if_changed(&path, "tick\n----\nok\n", &|| true).unwrap());
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);

        assert!(write_if_changed(&path, "tick\n----\nerror: x\n", &|| true).unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "tick\n----\nerror: x\n");
        assert_eq!(entries(&dir.path().join("sub/dir")), ["x.dd"]);
    }

    /// An identity no process has: this process's pid with another start.
    fn gone() -> Identity {
        let me = Identity::current();
        Identity {
            start: Some(me.start.unwrap_or(0) + 1),
            ..me
        }
    }

    #[test]
    fn temp_names_are_recognised_exactly() {
        let writer = Identity {
            pid: 4242,
            start: Some(17),
        };
        let name = temp_name("x.dd", &writer, 3);
        assert_eq!(name, ".x.dd.4242-17.3.tmp");
        assert_eq!(temp_writer(&name), Some(writer));
        let old = temp_writer(".a.b.slt.1.0.tmp");
        assert_eq!(
            old,
            Some(Identity {
                pid: 1,
                start: None
            })
        );
        for other in [
            "x.dd",
            ".x.dd",
            ".x.dd.tmp",
            ".x.dd.1.tmp",
            ".x.txt.1.0.tmp",
            ".x.dd.a.0.tmp",
            ".x.dd.1-.0.tmp",
            "x.dd.1.0.tmp",
            "..dd.1.0.tmp",
        ] {
            assert_eq!(temp_writer(other), None, "{other}");
        }
    }

    /// Only the temporary files of a writer that is gone are strays: a
    /// live rewrite's (this process's) is left alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn only_a_dead_writers_temporary_files_are_strays() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("a")).unwrap();
        let dead = temp_name("x.dd", &gone(), 0);
        let live = temp_name("y.dd", &Identity::current(), 0);
        for name in [&dead, &live, &"x.dd".to_string()] {
            fs::write(dir.path().join("a").join(name), "partial").unwrap();
        }
        assert_eq!(stray_temps(dir.path()), [dir.path().join("a").join(dead)]);
    }

    #[test]
    fn a_cancelled_write_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.dd");
        fs::write(&path, "old\n").unwrap();
        let e = write_if_changed(&path, "new\n", &|| false).unwrap_err();
        assert_eq!(e.to_string(), "the run was cancelled");
        assert_eq!(fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(entries(dir.path()), ["x.dd"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_golden_is_written_through_and_keeps_its_mode() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.dd");
        fs::write(&real, "old\n").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("x.dd");
        symlink(&real, &link).unwrap();
        assert!(write_if_changed(&link, "new\n", &|| true).unwrap());
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new\n");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn replaces_via_rename() {
        // An open handle to the old file still reads the old bytes: the new
        // content arrived by rename, not by truncating the file in place.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.dd");
        fs::write(&path, "old\n").unwrap();
        let mut old = fs::File::open(&path).unwrap();
        assert!(write_if_changed(&path, "new\n", &|| true).unwrap());
        let mut s = String::new();
        std::io::Read::read_to_string(&mut old, &mut s).unwrap();
        assert_eq!(s, "old\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
    }
}
