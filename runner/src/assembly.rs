//! Assembling a suite run: the scenario directory, its goldens and run
//! matrix, the files found in both, and the report of a golden whose
//! scenario is gone. Used by [`crate::app`] and by `tests/scenarios.rs`.

use crate::check::site::{Kind, Site};
use crate::check::{golden, rewrite};
use crate::check::{FileReport, FileSpec, Problem};
use crate::format::Dialect;
use crate::suite::discover;
use crate::suite::{Corpus, Suite, FOREIGN_SUITE};
use std::path::{Path, PathBuf};

/// Where a suite is: its scenario and goldens directories and its run
/// matrix, checked, without looking for files (a child process checking
/// one file needs no more).
pub struct Location {
    /// The scenario directory.
    pub dir: PathBuf,
    /// The goldens directory (of a foreign corpus: the corpus itself, each
    /// file its own golden).
    pub goldens: PathBuf,
    pub suite: Suite,
}

impl Location {
    /// The suite of `dir`: `suite` (default `dir/suite.yaml`) and the
    /// goldens under `goldens` (default: `goldens` beside `dir`), which must
    /// not contain `dir` or lie inside it. A `dir` without `suite.yaml` is a
    /// foreign corpus: its files are their own goldens (there is no goldens
    /// directory to name), `suite` or else [`FOREIGN_SUITE`] is its matrix,
    /// and its `.slt` files are read in Materialize's dialect unless
    /// `dialect` says otherwise (which it says for every `.slt` file of
    /// any suite).
    pub fn load(
        dir: &Path,
        suite: Option<&Path>,
        goldens: Option<&Path>,
        dialect: Option<Dialect>,
    ) -> Result<Location, String> {
        if !dir.is_dir() {
            return Err(format!("{}: not a directory", dir.display()));
        }
        let own = dir.join("suite.yaml");
        if !own.exists() {
            if let Some(g) = goldens {
                return Err(format!(
                    "--goldens {}: {} has no suite.yaml, so it is a foreign corpus, whose files are their own goldens",
                    g.display(),
                    dir.display()
                ));
            }
            let mut suite = match suite {
                Some(path) => Suite::load(path)?,
                None => Suite::parse("the default matrix", FOREIGN_SUITE)?,
            };
            suite.corpus = Corpus {
                dialect: Some(dialect.unwrap_or(Dialect::Materialize)),
                foreign: true,
            };
            return Ok(Location {
                dir: dir.to_path_buf(),
                goldens: dir.to_path_buf(),
                suite,
            });
        }
        let suite_path = suite.map_or(own, Path::to_path_buf);
        let mut suite = Suite::load(&suite_path)?;
        suite.corpus.dialect = dialect;
        let goldens = goldens.map_or_else(|| golden::default_dir(dir), Path::to_path_buf);
        // A file where the goldens directory should be is one usage error,
        // not a "cannot read" for every golden.
        if goldens.exists() && !goldens.is_dir() {
            return Err(format!(
                "{}: the goldens directory is not a directory",
                goldens.display()
            ));
        }
        let (d, g) = (resolved(dir), resolved(&goldens));
        if g.starts_with(&d) || d.starts_with(&g) {
            return Err(format!(
                "the goldens directory {} and the scenario directory {} must not contain one another (goldens would be read as scenarios, and a rewrite could overwrite a scenario)",
                goldens.display(),
                dir.display()
            ));
        }
        Ok(Location {
            dir: dir.to_path_buf(),
            goldens,
            suite,
        })
    }

    /// The scenario file `rel`.
    pub fn scenario(&self, rel: &Path) -> PathBuf {
        self.dir.join(rel)
    }

    /// The golden of `rel`.
    pub fn golden(&self, rel: &Path) -> PathBuf {
        self.goldens.join(rel)
    }
}

/// A loaded suite and the files it covers.
pub struct Assembly {
    pub location: Location,
    /// Every scenario file under `dir`, relative to it, sorted.
    pub scenarios: Vec<PathBuf>,
    /// Every golden under `goldens` without a scenario, relative, sorted.
    pub orphans: Vec<PathBuf>,
    /// Entries of either tree passed over, `path: reason` (see
    /// [`discover::Found::skipped`]), for a warning.
    pub skipped: Vec<String>,
    /// Temporary files of interrupted rewrites under `goldens`.
    pub stray_temps: Vec<PathBuf>,
    /// Directories of either tree that could not be read, sorted (see
    /// [`discover::Found::unreadable`]).
    pub unreadable: Vec<Unreadable>,
}

/// A directory of the suite that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// Relative to its tree's root, for `--filter` and `--partition`.
    pub rel: PathBuf,
    /// As shown: under the scenario or the goldens directory.
    pub shown: String,
    /// Whether it is under the goldens directory.
    pub golden: bool,
    /// Why it could not be read.
    pub cause: String,
}

/// The directories under `root` that could not be read, `(rel, cause)` as
/// discovery found them, for the tree of scenarios or of goldens.
fn unreadable(
    root: &Path,
    found: Vec<(PathBuf, String)>,
    golden: bool,
) -> impl Iterator<Item = Unreadable> + '_ {
    found.into_iter().map(move |(rel, cause)| Unreadable {
        shown: root.join(&rel).display().to_string(),
        rel,
        golden,
        cause,
    })
}

impl Assembly {
    /// Loads the suite of `dir` (see [`Location::load`]) and finds the
    /// files of both trees.
    pub fn load(
        dir: &Path,
        suite: Option<&Path>,
        goldens: Option<&Path>,
        dialect: Option<Dialect>,
    ) -> Result<Assembly, String> {
        let location = Location::load(dir, suite, goldens, dialect)?;
        let mut scenarios = discover::scenario_files(&location.dir)?;
        if location.suite.corpus.foreign {
            // Only sqllogictest files are foreign scenarios.
            scenarios
                .files
                .retain(|f| f.extension().is_some_and(|e| e == "slt"));
            return Ok(Assembly {
                scenarios: scenarios.files,
                orphans: Vec::new(),
                skipped: scenarios.skipped,
                stray_temps: Vec::new(),
                unreadable: unreadable(&location.dir, scenarios.unreadable, false).collect(),
                location,
            });
        }
        let golden_files = discover::scenario_files(&location.goldens)?;
        let orphans = golden::orphans(&scenarios.files, &golden_files.files);
        let mut skipped = scenarios.skipped;
        skipped.extend(golden_files.skipped);
        let unreadable = unreadable(&location.dir, scenarios.unreadable, false)
            .chain(unreadable(&location.goldens, golden_files.unreadable, true))
            .collect();
        Ok(Assembly {
            scenarios: scenarios.files,
            orphans,
            skipped,
            stray_temps: rewrite::stray_temps(&location.goldens),
            unreadable,
            location,
        })
    }

    /// What [`crate::check::Checker::check`] needs for a scenario and its
    /// golden (shown as given).
    pub fn spec<'a>(scenario: &'a Path, golden: &'a Path) -> FileSpec<'a> {
        FileSpec {
            scenario,
            scenario_shown: scenario.display().to_string(),
            golden,
            golden_shown: golden.display().to_string(),
        }
    }

    /// The failing report of a directory that could not be read: the files
    /// under it were not checked (or, under the goldens, their goldens and
    /// any golden without a scenario could not be found).
    pub fn unreadable_report(u: &Unreadable) -> FileReport {
        let what = match u.golden {
            false => "the scenario files under it were not checked",
            true => "the goldens under it cannot be read, so their scenarios fail",
        };
        FileReport {
            path: u.shown.clone(),
            problems: vec![Problem {
                summary: format!("cannot read this directory: {} ({what})", u.cause),
                details: String::new(),
            }],
            site: Some(Site::file(Kind::Unreadable)),
            ..FileReport::default()
        }
    }

    /// The failing report of the orphan golden `rel`.
    pub fn orphan_report(&self, rel: &Path) -> FileReport {
        FileReport {
            path: self.location.golden(rel).display().to_string(),
            problems: vec![Problem {
                summary: format!(
                    "golden without a scenario (no {}; delete the golden or restore the scenario)",
                    self.location.scenario(rel).display()
                ),
                details: String::new(),
            }],
            site: Some(Site::file(Kind::Orphan)),
            ..FileReport::default()
        }
    }
}

/// `path` absolute, with links and `..` resolved as far as it exists (a
/// goldens directory may not exist yet), to compare two directories.
fn resolved(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut missing = Vec::new();
    loop {
        let here = if existing.as_os_str().is_empty() {
            Path::new(".")
        } else {
            existing
        };
        if let Ok(real) = here.canonicalize() {
            return missing.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name);
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}
