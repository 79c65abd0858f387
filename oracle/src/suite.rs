//! The oracle over a whole suite: each scenario's golden (found the way
//! the runner finds them), parsed with the runner's parser, replayed on
//! PostgreSQL, one report per file.

use crate::check::{check_script, Finding};
use postgres::Client;
use runner::assembly::Assembly;
use runner::check::golden::{self, Golden};
use runner::format::{text_of, Script};
use runner::suite::discover::slash_path;
use std::path::Path;

/// What the oracle found in one golden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    /// The golden as shown (`goldens/tables/basic.dd`).
    pub path: String,
    /// Every compared directive, in order.
    pub findings: Vec<Finding>,
    /// Why the file could not be checked at all (no golden, a parse error,
    /// a scenario whose directives the golden does not match, the server
    /// failing): the file counts as one failure.
    pub problem: Option<String>,
}

/// Checks the golden of every scenario under `dir` whose relative path
/// contains `filter` (the goldens directory: `goldens`, else the runner's
/// default beside `dir`).
pub fn check_suite(
    client: &mut Client,
    dir: &Path,
    goldens: Option<&Path>,
    filter: Option<&str>,
) -> Result<Vec<FileReport>, String> {
    let assembly = Assembly::load(dir, None, goldens, None)?;
    let location = &assembly.location;
    Ok(assembly
        .scenarios
        .iter()
        .filter(|rel| filter.is_none_or(|f| slash_path(rel).contains(f)))
        .map(|rel| check_file(client, &location.scenario(rel), &location.golden(rel)))
        .collect())
}

/// Checks one golden against PostgreSQL. `scenario` is where its includes
/// are found, and its directives must be the golden's (same commands and
/// markers), as the runner keeps them.
pub fn check_file(client: &mut Client, scenario: &Path, golden: &Path) -> FileReport {
    let path = golden.display().to_string();
    let outcome = parsed(scenario, golden, &path).and_then(|script| check_script(client, &script));
    match outcome {
        Ok(findings) => FileReport {
            path,
            findings,
            problem: None,
        },
        Err(problem) => FileReport {
            path,
            findings: Vec::new(),
            problem: Some(problem),
        },
    }
}

/// The golden, parsed as the runner parses it, after checking that its
/// scenario has the same directives.
fn parsed(scenario: &Path, golden: &Path, shown: &str) -> Result<Script, String> {
    let text = match golden::read(golden)? {
        Golden::Present(text) => text,
        Golden::Missing => return Err(format!("{shown}: no golden; run the runner first")),
    };
    let script = Script::parse(scenario, shown, &text).map_err(|e| e.to_string())?;
    let scenario_text = std::fs::read(scenario)
        .ok()
        .and_then(text_of)
        .ok_or_else(|| format!("{}: cannot read it as UTF-8", scenario.display()))?;
    let own = Script::parse(scenario, &scenario.display().to_string(), &scenario_text)
        .map_err(|e| e.to_string())?;
    let directives = |s: &Script| {
        s.blocks
            .iter()
            .map(|b| {
                (
                    b.directive.command.clone(),
                    b.directive.skip_postgres,
                    b.directive.conditions.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    if directives(&own) != directives(&script) {
        return Err(format!(
            "{shown}: its directives are not those of {} (run the runner: it keeps them in step)",
            scenario.display()
        ));
    }
    Ok(script)
}
