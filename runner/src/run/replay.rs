//! One run: a fresh target under one configuration executes a file's
//! directives (those its `configs=` allows) and yields one output each.

use crate::format::Script;
use crate::run::capture::{self, Panic};
use crate::run::target::Factory;
use crate::suite::matrix::Run;
use engine::{Outcome, Witness};
use std::cell::Cell;

/// What one run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRecord {
    pub run: Run,
    /// Per block: its output lines, or `None` if `configs=` skipped it.
    pub outputs: Vec<Option<Vec<String>>>,
    /// How many directives returned user read results (rows).
    pub reads: usize,
    pub witness: Witness,
}

/// Where a run was when it panicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Building the engine.
    Create,
    /// Executing the block of that index.
    Directive(usize),
    /// Asking for the witness.
    Witness,
}

/// A run that panicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPanic {
    pub run: Run,
    pub stage: Stage,
    pub panic: Panic,
}

/// Replays `script` under `run` on a target built by `factory`.
pub fn replay(script: &Script, run: &Run, factory: &Factory) -> Result<RunRecord, Box<RunPanic>> {
    let stage = Cell::new(Stage::Create);
    let result = capture::catch(|| {
        let mut target = factory(&run.config());
        let mut outputs = Vec::with_capacity(script.blocks.len());
        let mut reads = 0;
        for (i, block) in script.blocks.iter().enumerate() {
            let d = &block.directive;
            if !d.runs_under(&run.configuration) {
                outputs.push(None);
                continue;
            }
            stage.set(Stage::Directive(i));
            let outcome = target.execute(&d.command);
            if d.command.is_read() && matches!(outcome, Outcome::Rows(_) | Outcome::Updates { .. })
            {
                reads += 1;
            }
            outputs.push(Some(script.output(i, &outcome)));
        }
        stage.set(Stage::Witness);
        let witness = target.witness();
        (outputs, reads, witness)
    });
    match result {
        Ok((outputs, reads, witness)) => Ok(RunRecord {
            run: run.clone(),
            outputs,
            reads,
            witness,
        }),
        Err(panic) => Err(Box::new(RunPanic {
            run: run.clone(),
            stage: stage.get(),
            panic,
        })),
    }
}
