//! Gathering the logging runtime's worker reports, which introspection
//! relations are computed from.

use super::Engine;
use crate::protocol::Command;

impl Engine {
    /// Gathers a report from every worker of the logging runtime.
    pub(super) fn report(&mut self) -> Result<(), String> {
        self.reports.clear();
        self.next_request += 1;
        let request = self.next_request;
        let runtime = self.maintenance();
        self.runtimes[runtime]
            .runtime
            .broadcast(Command::Report { request });
        self.settle();
        let reported = self.reports.get(&request).cloned().unwrap_or_default();
        if reported.len() < self.config.workers {
            let missing: Vec<String> = (0..self.config.workers)
                .filter(|w| !reported.iter().any(|r| r.worker == *w))
                .map(|w| w.to_string())
                .collect();
            return Err(format!(
                "introspection waits on paused worker(s) {}",
                missing.join(", ")
            ));
        }
        Ok(())
    }
}
