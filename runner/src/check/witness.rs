//! Each configuration must prove it was in effect.
//!
//! Sharing on: if the run produced any read results besides introspection
//! (which the logging runtime answers itself in every configuration) and
//! reads of constants only (which have nothing to share), reads
//! were served through shared imports (`shared_reads > 0`) and none locally
//! (`local_reads == 0`), and no dropped collection kept a slot in the
//! sharing registry once no worker was paused, and no point was found
//! astray after a maintenance step (presenting other batches than its
//! traces', or keeping batches once retired). Sharing off: nothing was
//! published and no read was served through a shared import. Either way:
//! no worker kept a dataflow installed past the step that ended its use.

use crate::run::replay::RunRecord;

/// `Err` with a message naming the run if its witness disproves its configuration.
pub fn check(record: &RunRecord) -> Result<(), String> {
    let w = &record.witness;
    let run = &record.run;
    let counts = format!(
        "shared_reads={}, local_reads={}, published={}, logging_reads={}, constant_reads={}",
        w.shared_reads, w.local_reads, w.published, w.logging_reads, w.constant_reads
    );
    if w.unused_dataflows > 0 {
        return Err(format!(
            "{run}: {} time(s) a worker ended a step with a dataflow installed that nothing used any more (a dropped index's, an answered read's or a drained publication's dataflow must leave in the step that ends its use)",
            w.unused_dataflows
        ));
    }
    let user_reads = (record.reads as u64)
        .saturating_sub(w.logging_reads)
        .saturating_sub(w.constant_reads);
    if run.sharing {
        if user_reads > 0 && (w.shared_reads == 0 || w.local_reads != 0) {
            return Err(format!(
                "{run}: sharing is on and {user_reads} directive(s) returned rows of tables, views or indexes, but not every read was served through a shared import ({counts}; expected shared_reads > 0 and local_reads = 0)"
            ));
        }
        if w.points_astray > 0 {
            return Err(format!(
                "{run}: {} time(s) a maintenance step left a sharing point astray (a published point not presenting exactly its traces' batches and uppers, or a retired point still holding batches)",
                w.points_astray
            ));
        }
        if let Some(stale) = w.stale_slots.as_ref().filter(|s| !s.is_empty()) {
            let ids: Vec<String> = stale.iter().map(|id| id.to_string()).collect();
            return Err(format!(
                "{run}: the sharing registry still holds a slot of dropped collection(s) {} after the run (every runtime applied the drop; a dropped collection's slot must leave the registry)",
                ids.join(", ")
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
    use crate::suite::matrix::Run;
    use crate::suite::Schedule;
    use engine::Witness;

    fn record(
        sharing: bool,
        reads: usize,
        shared_reads: u64,
        local_reads: u64,
        published: u64,
    ) -> RunRecord {
        record_with_logging(sharing, reads, shared_reads, local_reads, published, 0)
    }

    fn record_with_logging(
        sharing: bool,
        reads: usize,
        shared_reads: u64,
        local_reads: u64,
        published: u64,
        logging_reads: u64,
    ) -> RunRecord {
        RunRecord {
            run: Run {
                configuration: if sharing { "shared" } else { "solo" }.into(),
                sharing,
                delta_joins: false,
                workers: 1,
                schedule: Schedule::RoundRobin,
            },
            outputs: vec![],
            reads,
            witness: Witness {
                shared_reads,
                local_reads,
                published,
                logging_reads,
                constant_reads: 0,
                stale_slots: Some(vec![]),
                points_astray: 0,
                unused_dataflows: 0,
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
        // Only introspection read: the logging runtime answered it.
        assert!(check(&record_with_logging(true, 2, 0, 0, 1, 2)).is_ok());
        // One read besides introspection, and it was not shared.
        assert!(check(&record_with_logging(true, 3, 0, 0, 1, 2)).is_err());
        // Only reads of constants: there was nothing to share.
        let mut constants = record(true, 2, 0, 0, 0);
        constants.witness.constant_reads = 2;
        assert!(check(&constants).is_ok());
        // One read of a table besides them, and it was not shared.
        constants.reads = 3;
        constants.witness.local_reads = 1;
        let e = check(&constants).unwrap_err();
        assert!(
            e.contains("and 1 directive(s) returned rows of tables"),
            "{e}"
        );
    }

    #[test]
    fn a_dropped_collections_slot_left_in_the_registry_fails_sharing() {
        let mut leaked = record(true, 2, 2, 0, 1);
        leaked.witness.stale_slots = Some(vec![engine::repr::GlobalId(3)]);
        let e = check(&leaked).unwrap_err();
        assert!(e.contains("slot of dropped collection(s) u3"), "{e}");
        // A paused worker may not have applied the drop yet: not checked.
        leaked.witness.stale_slots = None;
        assert!(check(&leaked).is_ok());
    }

    #[test]
    fn a_point_astray_after_a_maintenance_step_fails_sharing() {
        let mut astray = record(true, 2, 2, 0, 1);
        astray.witness.points_astray = 2;
        let e = check(&astray).unwrap_err();
        assert!(
            e.contains("2 time(s) a maintenance step left a sharing point astray"),
            "{e}"
        );
        // Even a run that read nothing.
        let mut quiet = record(true, 0, 0, 0, 1);
        quiet.witness.points_astray = 1;
        assert!(check(&quiet).is_err());
    }

    #[test]
    fn a_dataflow_left_installed_unused_fails_either_configuration() {
        for sharing in [true, false] {
            let mut lingering = record(sharing, 0, 0, 0, 0);
            lingering.witness.unused_dataflows = 1;
            let e = check(&lingering).unwrap_err();
            assert!(
                e.contains("1 time(s) a worker ended a step with a dataflow installed"),
                "{e}"
            );
        }
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
