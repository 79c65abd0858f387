//! Finding scenario and golden files.

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
}

/// Every `*.dd` and `*.slt` file under `root`, following links. A missing
/// root has no files; an entry that cannot be read for another reason
/// (permissions) is an error.
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
        if entry.file_name().to_string_lossy().starts_with(".#") {
            let reason = "an editor's lock file";
            found.skipped.push(format!("{}: {reason}", path.display()));
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        found.files.push(rel.to_path_buf());
    }
    found.files.sort();
    found.skipped.sort();
    Ok(found)
}

/// Why a walk error is a link that leads nowhere, if it is one.
fn unreadable_link(e: &walkdir::Error) -> Option<&'static str> {
    if e.loop_ancestor().is_some() {
        return Some("a symbolic link loop");
    }
    let dangling = e
        .io_error()
        .is_some_and(|io| io.kind() == ErrorKind::NotFound)
        && e.path()
            .and_then(|p| std::fs::symlink_metadata(p).ok())
            .is_some_and(|m| m.file_type().is_symlink());
    dangling.then_some("a dangling symbolic link")
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
        let found = scenario_files(root).unwrap();
        let files: Vec<String> = found.files.iter().map(|p| slash_path(p)).collect();
        assert_eq!(files, ["d/real.dd"]);
        let shown = |rel: &str, reason: &str| format!("{}: {reason}", root.join(rel).display());
        assert_eq!(
            found.skipped,
            [
                shown("d/.#real.dd", "an editor's lock file"),
                shown("d/dangling.dd", "a dangling symbolic link"),
                shown("d/loop", "a symbolic link loop"),
            ]
        );
    }
}
