//! The built-in relations' names, ids and schemas: what the catalog resolves
//! and the planner types, apart from how introspection computes their rows.

use crate::repr::{Column, GlobalId, ScalarType};

/// The built-in relations, in a fixed order that also gives their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Relation {
    Objects,
    ComputeExports,
    ComputeDependencies,
    Dataflows,
    ErrorCountsRaw,
    ErrorCountsPerWorker,
    ErrorCounts,
    ArrangementFrontiers,
    ArrangementSizes,
    ComputeFrontiers,
    LirMapping,
}

const ALL: [Relation; 11] = [
    Relation::Objects,
    Relation::ComputeExports,
    Relation::ComputeDependencies,
    Relation::Dataflows,
    Relation::ErrorCountsRaw,
    Relation::ErrorCountsPerWorker,
    Relation::ErrorCounts,
    Relation::ArrangementFrontiers,
    Relation::ArrangementSizes,
    Relation::ComputeFrontiers,
    Relation::LirMapping,
];

/// Ids of built-in relations sit far above any user id.
const BASE: u64 = 1 << 48;

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Objects => "mz_objects",
            Relation::ComputeExports => "mz_compute_exports",
            Relation::ComputeDependencies => "mz_compute_dependencies",
            Relation::Dataflows => "mz_dataflows",
            Relation::ErrorCountsRaw => "mz_compute_error_counts_raw",
            Relation::ErrorCountsPerWorker => "mz_compute_error_counts_per_worker",
            Relation::ErrorCounts => "mz_compute_error_counts",
            Relation::ArrangementFrontiers => "mz_arrangement_frontiers",
            Relation::ArrangementSizes => "mz_arrangement_sizes",
            Relation::ComputeFrontiers => "mz_compute_frontiers",
            Relation::LirMapping => "mz_lir_mapping",
        }
    }

    pub fn id(self) -> GlobalId {
        GlobalId(BASE + ALL.iter().position(|r| *r == self).expect("listed") as u64)
    }

    pub fn by_name(name: &str) -> Option<Relation> {
        ALL.iter().copied().find(|r| r.name() == name)
    }

    pub fn by_id(id: GlobalId) -> Option<Relation> {
        id.0.checked_sub(BASE)
            .and_then(|i| ALL.get(i as usize))
            .copied()
    }

    pub fn columns(self) -> Vec<Column> {
        use ScalarType::{Int64 as Int, Text};
        let cols: &[(&str, ScalarType, bool)] = match self {
            Relation::Objects => &[
                ("id", Text, false),
                ("name", Text, false),
                ("type", Text, false),
            ],
            Relation::ComputeExports => &[("export_id", Text, false), ("dataflow_id", Int, false)],
            Relation::ComputeDependencies => {
                &[("object_id", Text, false), ("dependency_id", Text, false)]
            }
            Relation::Dataflows => &[("id", Int, false), ("name", Text, false)],
            Relation::ErrorCountsRaw | Relation::ErrorCountsPerWorker => &[
                ("export_id", Text, false),
                ("worker_id", Int, false),
                ("count", Int, false),
            ],
            Relation::ErrorCounts => &[("export_id", Text, false), ("count", Int, false)],
            Relation::ArrangementFrontiers => &[
                ("export_id", Text, false),
                ("worker_id", Int, false),
                ("since", Int, true),
                ("upper", Int, true),
            ],
            Relation::ArrangementSizes => &[
                ("export_id", Text, false),
                ("worker_id", Int, false),
                ("records", Int, false),
            ],
            Relation::ComputeFrontiers => &[("export_id", Text, false), ("time", Int, true)],
            Relation::LirMapping => &[("global_id", Text, false), ("operator", Text, false)],
        };
        cols.iter()
            .map(|(name, typ, nullable)| Column {
                name: name.to_string(),
                typ: *typ,
                nullable: *nullable,
            })
            .collect()
    }
}
