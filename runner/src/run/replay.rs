//! One run: a fresh target under one configuration executes a file's
//! directives (those its `configs=` allows) and yields one output each.

use crate::format::directive::Command;
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

/// The witness of two engines of one run, one after the other: their
/// counts added, and the leaked slots of both (unknown if either's is).
fn merged(a: Witness, b: Witness) -> Witness {
    Witness {
        shared_reads: a.shared_reads + b.shared_reads,
        local_reads: a.local_reads + b.local_reads,
        published: a.published + b.published,
        logging_reads: a.logging_reads + b.logging_reads,
        constant_reads: a.constant_reads + b.constant_reads,
        stale_slots: a.stale_slots.zip(b.stale_slots).map(|(mut a, b)| {
            a.extend(b);
            a
        }),
        points_astray: a.points_astray + b.points_astray,
        unused_dataflows: a.unused_dataflows + b.unused_dataflows,
    }
}

/// Replays `script` under `run` on a target built by `factory`.
pub fn replay(script: &Script, run: &Run, factory: &Factory) -> Result<RunRecord, Box<RunPanic>> {
    let stage = Cell::new(Stage::Create);
    let result = capture::catch(|| {
        let mut target = factory(&run.config());
        let mut outputs = Vec::with_capacity(script.blocks.len());
        let mut reads = 0;
        // The witnesses of engines a `reset-server` replaced.
        let mut earlier: Option<Witness> = None;
        for (i, block) in script.blocks.iter().enumerate() {
            let d = &block.directive;
            if !d.runs_under(&run.configuration) {
                outputs.push(None);
                continue;
            }
            stage.set(Stage::Directive(i));
            if d.command == Command::Reset {
                let witness = target.witness();
                earlier = Some(earlier.map_or(witness.clone(), |e| merged(e, witness)));
                target = factory(&run.config());
                outputs.push(Some(vec!["ok".to_string()]));
                continue;
            }
            let columns = script.described(i).and_then(|sql| target.describe(sql));
            let outcome = target.execute(&d.command);
            if d.command.is_read() && matches!(outcome, Outcome::Rows(_) | Outcome::Updates { .. })
            {
                reads += 1;
            }
            outputs.push(Some(script.output_named(i, &outcome, columns.as_deref())));
        }
        stage.set(Stage::Witness);
        let witness = target.witness();
        let witness = earlier.map_or(witness.clone(), |e| merged(e, witness));
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
