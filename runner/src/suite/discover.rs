//! Finding scenario and golden files.

use std::path::{Path, PathBuf};
use walkdir::WalkDir;

use crate::format::EXTENSIONS;

/// Every `*.dd` and `*.slt` file under `root`, as paths relative to it,
/// sorted. A missing root has no files.
pub fn scenario_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    if !root.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in WalkDir::new(root).follow_links(true) {
        let entry = entry.map_err(|e| format!("{}: {e}", root.display()))?;
        let path = entry.path();
        if entry.file_type().is_file()
            && path
                .extension()
                .is_some_and(|e| EXTENSIONS.iter().any(|x| e == *x))
        {
            let rel = path
                .strip_prefix(root)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            out.push(rel.to_path_buf());
        }
    }
    out.sort();
    Ok(out)
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
            .iter()
            .map(|p| slash_path(p))
            .collect();
        assert_eq!(found, ["a/y.dd", "b/a.dd", "b/c/z.dd", "top.dd", "x.slt"]);
        assert!(scenario_files(&root.join("missing")).unwrap().is_empty());
    }
}
