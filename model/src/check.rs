//! A whole script checked against one run's outputs: the first directive
//! whose output differs from the model's claim.

use crate::session::{Expectation, Model};
use runner::format::Script;
use std::collections::BTreeMap;
use std::fmt;

/// A claim a run's output contradicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The block's index in the script.
    pub block: usize,
    /// The directive's 1-based line.
    pub line: usize,
    pub expected: Vec<String>,
    pub actual: Vec<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "line {}: the model expects:", self.line)?;
        for l in &self.expected {
            writeln!(f, "  {l}")?;
        }
        writeln!(f, "the run printed:")?;
        for l in &self.actual {
            writeln!(f, "  {l}")?;
        }
        Ok(())
    }
}

/// How many claims a check made, and the directives it left unclaimed by
/// reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub claimed: usize,
    pub unclaimed: BTreeMap<&'static str, usize>,
}

impl Tally {
    pub fn unclaimed(&self) -> usize {
        self.unclaimed.values().sum()
    }

    pub fn add(&mut self, other: &Tally) {
        self.claimed += other.claimed;
        for (why, n) in &other.unclaimed {
            *self.unclaimed.entry(why).or_default() += n;
        }
    }
}

/// Runs `script` through a fresh model; `outputs[i]` is block `i`'s output
/// (`None`: no run reached it, nothing to compare).
pub fn check(script: &Script, outputs: &[Option<Vec<String>>]) -> Result<(), Mismatch> {
    check_tally(script, outputs).map(|_| ())
}

/// [`check`], also counting claims.
pub fn check_tally(script: &Script, outputs: &[Option<Vec<String>>]) -> Result<Tally, Mismatch> {
    let mut model = Model::new();
    let mut tally = Tally::default();
    for (block, (b, actual)) in script.blocks.iter().zip(outputs).enumerate() {
        match model.expect(&b.directive.command) {
            Expectation::Claim(expected) => {
                tally.claimed += 1;
                if let Some(actual) = actual {
                    if *actual != expected {
                        return Err(Mismatch {
                            block,
                            line: b.directive.line,
                            expected,
                            actual: actual.clone(),
                        });
                    }
                }
            }
            Expectation::NoClaim(why) => *tally.unclaimed.entry(why).or_default() += 1,
        }
    }
    Ok(tally)
}
