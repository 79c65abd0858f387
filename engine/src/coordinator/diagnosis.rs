//! Why a read cannot be answered: what each waiting worker last saw of the
//! peek's frontiers, grouped so the text does not depend on the worker
//! count unless the workers really differ.

use std::collections::BTreeMap;

use super::Engine;
use crate::protocol::PeekTarget;
use crate::repr::Timestamp;

impl Engine {
    pub(super) fn diagnose(&self, peek: u64) -> String {
        let state = &self.peeks[&peek];
        let what = match state.target {
            PeekTarget::Transient => "transient dataflow".to_string(),
            PeekTarget::Index(target) => {
                let name = self
                    .catalog
                    .get(target)
                    .map_or("a dropped index".into(), |e| e.name.clone());
                format!("{name} ({target})")
            }
        };
        let board = self.runtimes[state.runtime].board.lock().expect("board");
        // Workers in the same state are named together, and all of them as
        // "every worker", so the text does not depend on the worker count
        // unless the workers really differ.
        let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for w in (0..self.config.workers).filter(|w| !state.responses.contains_key(w)) {
            let paused = if self.scheduler.is_paused((state.runtime, w)) {
                "paused, "
            } else {
                ""
            };
            let seen = match board.get(peek, w) {
                None => "has not seen the peek".to_string(),
                Some(f) => format!(
                    "since {} oks upper {} errs upper {}",
                    frontier(f.since),
                    frontier(f.oks_upper),
                    frontier(f.errs_upper)
                ),
            };
            groups.entry(format!("{paused}{seen}")).or_default().push(w);
        }
        let waits: Vec<String> = match groups.len() {
            1 if state.responses.is_empty() => groups
                .into_keys()
                .map(|g| format!("every worker {g}"))
                .collect(),
            _ => groups
                .into_iter()
                .map(|(g, workers)| {
                    let names: Vec<String> = workers.iter().map(|w| w.to_string()).collect();
                    format!("worker {} {g}", names.join(", "))
                })
                .collect(),
        };
        format!(
            "read of {what} at {} waits: {}",
            state.time,
            waits.join("; ")
        )
    }
}

/// A frontier of one timestamp as the diagnosis prints it.
fn frontier(t: Option<Timestamp>) -> String {
    t.map_or("[]".into(), |t| format!("[{t}]"))
}
