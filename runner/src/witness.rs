//! Each configuration must prove it was in effect.
//!
//! Sharing on: if the run produced any user read results, reads were served
//! through shared imports (`shared_reads > 0`) and none locally
//! (`local_reads == 0`). Sharing off: nothing was published and no read was
//! served through a shared import.

use crate::replay::RunRecord;

/// `Err` with a message naming the run if its witness disproves its configuration.
pub fn check(record: &RunRecord) -> Result<(), String> {
    let w = &record.witness;
    let run = &record.run;
    let counts = format!(
        "shared_reads={}, local_reads={}, published={}",
        w.shared_reads, w.local_reads, w.published
    );
    if run.sharing {
        if record.reads > 0 && (w.shared_reads == 0 || w.local_reads != 0) {
            return Err(format!(
                "{run}: sharing is on and {} directive(s) returned rows, but not every read was served through a shared import ({counts}; expected shared_reads > 0 and local_reads = 0)",
                record.reads
            ));
        }
    } else if w.published != 0 || w.shared_reads != 0 {
        return Err(format!(
            "{run}: sharing is off, but something was shared ({counts}; expected published = 0 and shared_reads = 0)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Run;
    use crate::suite::Schedule;
    use engine::Witness;

    fn record(
        sharing: bool,
        reads: usize,
        shared_reads: u64,
        local_reads: u64,
        published: u64,
    ) -> RunRecord {
        RunRecord {
            run: Run {
                configuration: if sharing { "shared" } else { "solo" }.into(),
                sharing,
                workers: 1,
                schedule: Schedule::RoundRobin,
            },
            outputs: vec![],
            reads,
            witness: Witness {
                shared_reads,
                local_reads,
                published,
            },
        }
    }

    #[test]
    fn sharing_on() {
        assert!(check(&record(true, 2, 2, 0, 1)).is_ok());
        // No read results: nothing to prove about reads.
        assert!(check(&record(true, 0, 0, 0, 0)).is_ok());
        let e = check(&record(true, 2, 0, 2, 1)).unwrap_err();
        assert!(
            e.starts_with("shared/workers=1/round-robin: sharing is on"),
            "{e}"
        );
        assert!(
            e.contains("shared_reads=0, local_reads=2, published=1"),
            "{e}"
        );
        assert!(check(&record(true, 2, 1, 1, 1)).is_err());
    }

    #[test]
    fn sharing_off() {
        assert!(check(&record(false, 3, 0, 3, 0)).is_ok());
        let e = check(&record(false, 3, 0, 3, 1)).unwrap_err();
        assert!(
            e.starts_with("solo/workers=1/round-robin: sharing is off"),
            "{e}"
        );
        assert!(check(&record(false, 3, 1, 2, 0)).is_err());
    }
}
