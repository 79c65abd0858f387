//! Goldens: one completed transcript per scenario file, at the same relative
//! path under the goldens directory.

use crate::format::text_of;
use std::path::{Path, PathBuf};

/// The default goldens directory: `goldens`, a sibling of the scenario
/// directory. A directory named by `.` or `..` has no name of its own to be
/// a sibling of, so its resolved path is used (`runner .` in `testdata/`
/// means `../goldens`, not `./goldens` inside it).
pub fn default_dir(scenarios: &Path) -> PathBuf {
    let resolved;
    let scenarios = match scenarios.file_name() {
        Some(_) => scenarios,
        None => {
            resolved = scenarios
                .canonicalize()
                .unwrap_or_else(|_| scenarios.to_path_buf());
            &resolved
        }
    };
    let parent = scenarios
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if parent == Path::new(".") && !scenarios.is_absolute() {
        PathBuf::from("goldens")
    } else {
        parent.join("goldens")
    }
}

/// What the golden of one scenario says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Golden {
    /// There is no golden file.
    Missing,
    /// The golden's text.
    Present(String),
}

/// Reads the golden at `path`.
pub fn read(path: &Path) -> Result<Golden, String> {
    match std::fs::read(path) {
        Ok(bytes) => text_of(bytes)
            .map(Golden::Present)
            .ok_or_else(|| format!("{}: not UTF-8", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Golden::Missing),
        Err(e) => Err(format!("{}: cannot read: {e}", path.display())),
    }
}

/// Golden files (relative paths) that no scenario has.
pub fn orphans(scenarios: &[PathBuf], goldens: &[PathBuf]) -> Vec<PathBuf> {
    goldens
        .iter()
        .filter(|g| scenarios.binary_search(g).is_err())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_a_sibling() {
        assert_eq!(default_dir(Path::new("testdata")), Path::new("goldens"));
        assert_eq!(default_dir(Path::new("./testdata")), Path::new("goldens"));
        assert_eq!(
            default_dir(Path::new("/w/main/testdata")),
            Path::new("/w/main/goldens")
        );
        assert_eq!(default_dir(Path::new("x/testdata")), Path::new("x/goldens"));
        let dir = tempfile::tempdir().unwrap();
        let testdata = dir.path().join("testdata");
        std::fs::create_dir_all(testdata.join("sub")).unwrap();
        let beside = dir.path().canonicalize().unwrap().join("goldens");
        assert_eq!(
            default_dir(&testdata.join("..").join("testdata")),
            dir.path().join("testdata/../goldens")
        );
        assert_eq!(default_dir(&testdata.join("sub/..")), beside);
    }

    #[test]
    fn orphans_are_goldens_without_scenarios() {
        let s: Vec<PathBuf> = ["a.dd", "b/c.dd"].iter().map(PathBuf::from).collect();
        let g: Vec<PathBuf> = ["a.dd", "b/c.dd", "b/d.dd", "z.dd"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(
            orphans(&s, &g),
            [PathBuf::from("b/d.dd"), PathBuf::from("z.dd")]
        );
    }

    #[test]
    fn read_missing_and_present() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.dd");
        assert_eq!(read(&p).unwrap(), Golden::Missing);
        std::fs::write(&p, "tick\n----\nok\n").unwrap();
        assert_eq!(
            read(&p).unwrap(),
            Golden::Present("tick\n----\nok\n".into())
        );
    }
}
