//! Finding scenario and golden files: every file with a scenario extension
//! under a root (the scenarios' or the goldens'), sorted, and the entries
//! passed over (dangling links, link loops, editors' lock files) with their
//! reasons, so that no stray entry stops the rest of the suite.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

use crate::format::EXTENSIONS;

/// The scenario files found under a root, and what was passed over.
#[derive(Debug, Default)]
pub struct Found {
    /// Every `*.dd` and `*.slt` file, relative to the root, sorted.
    pub files: Vec<PathBuf>,
    /// `path: reason` for each entry skipped: a dangling symbolic link, a
    /// link loop, or an editor's lock file (`.#name`), none of which is a
    /// scenario, and none of which may stop the rest of the suite.
    pub skipped: Vec<String>,
    /// Each directory under the root that could not be read (permissions),
    /// relative to the root, with the cause: the files under it fail,
    /// named, and the rest of the suite runs.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// Every `*.dd` and `*.slt` file under `root`, following links. A missing
/// root has no files; a root that cannot be read is an error, and an entry
/// under it that cannot be read for another reason than a link
/// (permissions) is [`Found::unreadable`].
pub fn scenario_files(root: &Path) -> Result<Found, String> {
    let mut found = Found::default();
    if !root.exists() {
        return Ok(found);
    }
    for entry in WalkDir::new(root).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => match (e.path(), unreadable_link(&e)) {
                (Some(path), Some(reason)) => {
                    found.skipped.push(format!("{}: {reason}", path.display()));
                    continue;
                }
                (Some(path), None) if e.depth() > 0 => {
                    let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
                    let cause = e.io_error().map_or(e.to_string(), |io| io.to_string());
                    found.unreadable.push((rel, cause));
                    continue;
                }
                _ => return Err(format!("{}: {e}", root.display())),
            },
        };
        let path = entry.path();
        if !entry.file_type().is_file()
            || !path
                .extension()
                .is_some_and(|e| EXTENSIONS.iter().any(|x| e == *x))
        {
            continue;
        }
        if is_lock_file(path) {
            found
                .skipped
                .push(format!("{}: {LOCK_FILE}", path.display()));
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        found.files.push(rel.to_path_buf());
    }
    found.files.sort();
    found.skipped.sort();
    found.unreadable.sort();
    Ok(found)
}

/// Why a walk error is a link that leads nowhere, if it is one: a loop of
/// directories (walkdir sees the ancestor), a link whose target is missing
/// (an editor's lock file is one), or a link that cannot be followed for
/// another reason than permissions (a loop of file links: `a.dd -> b.dd ->
/// a.dd`, which the operating system refuses to resolve).
fn unreadable_link(e: &walkdir::Error) -> Option<String> {
    if e.loop_ancestor().is_some() {
        return Some("a symbolic link loop".into());
    }
    let (path, io) = (e.path()?, e.io_error()?);
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link || io.kind() == ErrorKind::PermissionDenied {
        return None;
    }
    Some(if is_lock_file(path) {
        LOCK_FILE.into()
    } else if io.kind() == ErrorKind::NotFound {
        "a dangling symbolic link".into()
    } else {
        format!("a symbolic link that cannot be followed ({io})")
    })
}

/// What an editor's lock file (`.#name`) is called in a skip warning.
const LOCK_FILE: &str = "an editor's lock file";

/// Whether a path names an editor's lock file (`.#name`).
fn is_lock_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with(".#"))
}

/// A relative path with `/` separators, for display and filtering.
pub fn slash_path(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_scenario_files_sorted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/c")).unwrap();
        fs::create_dir_all(root.join("a")).unwrap();
        for f in [
            "b/c/z.dd",
            "b/a.dd",
            "a/y.dd",
            "a/notes.md",
            "suite.yaml",
            "x.slt",
            "top.dd",
        ] {
            fs::write(root.join(f), "").unwrap();
        }
        let found: Vec<String> = scenario_files(root)
            .unwrap()
            .files
            .iter()
            .map(|p| slash_path(p))
            .collect();
        assert_eq!(found, ["a/y.dd", "b/a.dd", "b/c/z.dd", "top.dd", "x.slt"]);
        assert!(scenario_files(&root.join("missing"))
            .unwrap()
            .files
            .is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_that_lead_nowhere_and_lock_files_are_skipped() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("d")).unwrap();
        fs::write(root.join("d/real.dd"), "").unwrap();
        fs::write(root.join("d/.#real.dd"), "").unwrap();
        symlink("nowhere", root.join("d/dangling.dd")).unwrap();
        symlink("..", root.join("d/loop")).unwrap();
        symlink("user@host.42", root.join("d/.#gone.dd")).unwrap();
        symlink("b.dd", root.join("d/a.dd")).unwrap();
        symlink("a.dd", root.join("d/b.dd")).unwrap();
        let found = scenario_files(root).unwrap();
        let files: Vec<String> = found.files.iter().map(|p| slash_path(p)).collect();
        assert_eq!(files, ["d/real.dd"]);
        let shown = |rel: &str, reason: &str| format!("{}: {reason}", root.join(rel).display());
        let unfollowable = |rel: &str| {
            let io = fs::metadata(root.join(rel)).unwrap_err();
            shown(
                rel,
                &format!("a symbolic link that cannot be followed ({io})"),
            )
        };
        assert_eq!(
            found.skipped,
            [
                shown("d/.#gone.dd", "an editor's lock file"),
                shown("d/.#real.dd", "an editor's lock file"),
                unfollowable("d/a.dd"),
                unfollowable("d/b.dd"),
                shown("d/dangling.dd", "a dangling symbolic link"),
                shown("d/loop", "a symbolic link loop"),
            ]
        );
    }

    #[test]
    fn the_projects_scenarios_parse() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let files = scenario_files(&root).unwrap().files;
        assert!(!files.is_empty());
        for rel in files {
            let text = std::fs::read_to_string(root.join(&rel)).unwrap();
            let shown = rel.display().to_string();
            let script = crate::format::Script::parse(&root.join(&rel), &shown, &text)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(!script.blocks.is_empty(), "{shown}");
            crate::suite::header::parse(&text)
                .unwrap_or_else(|e| panic!("{shown}:{}: {}", e.line, e.message));
        }
    }
}
