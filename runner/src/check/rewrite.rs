//! Rewriting goldens: when it is allowed, and writing them atomically.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

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

/// Writes `contents` to `path` atomically (a temporary file in the same
/// directory, synced, then renamed over it), creating parent directories.
/// Returns false, touching nothing, when the file already has these bytes.
pub fn write_if_changed(path: &Path, contents: &str) -> std::io::Result<bool> {
    if fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(false);
    }
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
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
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
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp, path)
        });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| true)
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
        assert!(write_if_changed(&path, "tick\n----\nok\n").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "tick\n----\nok\n");
        // No temporary file is left behind.
        assert_eq!(entries(&dir.path().join("sub/dir")), ["x.dd"]);

        // Same bytes: not rewritten (the modification time stays).
        let before = fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!write_if_changed(&path, "tick\n----\nok\n").unwrap());
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);

        assert!(write_if_changed(&path, "tick\n----\nerror: x\n").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "tick\n----\nerror: x\n");
        assert_eq!(entries(&dir.path().join("sub/dir")), ["x.dd"]);
    }

    #[test]
    fn replaces_via_rename() {
        // An open handle to the old file still reads the old bytes: the new
        // content arrived by rename, not by truncating the file in place.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.dd");
        fs::write(&path, "old\n").unwrap();
        let mut old = fs::File::open(&path).unwrap();
        assert!(write_if_changed(&path, "new\n").unwrap());
        let mut s = String::new();
        std::io::Read::read_to_string(&mut old, &mut s).unwrap();
        assert_eq!(s, "old\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
    }
}
