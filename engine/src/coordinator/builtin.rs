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
    /// Materialize's catalog relations of `mz_catalog`, their rows the
    /// user objects of the engine's catalog (`coordinator::catalog_rows`).
    Tables,
    Views,
    MaterializedViews,
    Indexes,
    Schemas,
    Databases,
    /// `mz_roles` and `mz_role_members`: their rows the engine's roles
    /// and memberships (`coordinator::roles`), every one Materialize has.
    Roles,
    RoleMembers,
}

const ALL: [Relation; 19] = [
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
    Relation::Tables,
    Relation::Views,
    Relation::MaterializedViews,
    Relation::Indexes,
    Relation::Schemas,
    Relation::Databases,
    Relation::Roles,
    Relation::RoleMembers,
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
            Relation::Tables => "mz_tables",
            Relation::Views => "mz_views",
            Relation::MaterializedViews => "mz_materialized_views",
            Relation::Indexes => "mz_indexes",
            Relation::Schemas => "mz_schemas",
            Relation::Databases => "mz_databases",
            Relation::Roles => "mz_roles",
            Relation::RoleMembers => "mz_role_members",
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
            catalog => catalog_columns(catalog),
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

/// A column of Materialize's catalog relations: its name, type and
/// nullability, as `src/catalog/src/builtin.rs` declares them. `oid`
/// (Materialize's `oid`) and `privileges` (`mz_aclitem[]`) have no type of
/// the engine's; they are typed `uint4` and `text` here and never read: a
/// read of either is refused (`refused_column`).
type ColumnSpec = (&'static str, ScalarType, bool);

fn catalog_columns(relation: Relation) -> &'static [ColumnSpec] {
    use ScalarType::{Bool, Text, UInt32 as Oid};
    match relation {
        Relation::Tables => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("schema_id", Text, false),
            ("name", Text, false),
            ("owner_id", Text, false),
            ("privileges", Text, false),
            ("create_sql", Text, true),
            ("redacted_create_sql", Text, true),
            ("source_id", Text, true),
        ],
        Relation::Views => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("schema_id", Text, false),
            ("name", Text, false),
            ("definition", Text, false),
            ("owner_id", Text, false),
            ("privileges", Text, false),
            ("create_sql", Text, false),
            ("redacted_create_sql", Text, false),
        ],
        Relation::MaterializedViews => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("schema_id", Text, false),
            ("name", Text, false),
            ("cluster_id", Text, false),
            ("definition", Text, false),
            ("owner_id", Text, false),
            ("privileges", Text, false),
            ("create_sql", Text, false),
            ("redacted_create_sql", Text, false),
        ],
        Relation::Indexes => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("name", Text, false),
            ("on_id", Text, false),
            ("cluster_id", Text, false),
            ("owner_id", Text, false),
            ("create_sql", Text, false),
            ("redacted_create_sql", Text, false),
        ],
        Relation::Schemas => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("database_id", Text, true),
            ("name", Text, false),
            ("owner_id", Text, false),
            ("privileges", Text, false),
        ],
        Relation::Databases => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("name", Text, false),
            ("owner_id", Text, false),
            ("privileges", Text, false),
        ],
        Relation::Roles => &[
            ("id", Text, false),
            ("oid", Oid, false),
            ("name", Text, false),
            ("inherit", Bool, false),
            ("rolcanlogin", Bool, true),
            ("rolsuper", Bool, true),
        ],
        Relation::RoleMembers => &[
            ("role_id", Text, false),
            ("member", Text, false),
            ("grantor", Text, false),
        ],
        _ => &[],
    }
}

impl Relation {
    /// Whether it is one of Materialize's catalog relations (`mz_tables`,
    /// ...), not one of the suite's own views of compute.
    pub fn is_catalog(self) -> bool {
        !catalog_columns(self).is_empty()
    }

    /// Whether Materialize lists its own system objects in it too, which
    /// the engine's catalog does not have: a read must filter them out
    /// (`sql::query::catalog_reads`). No system object is a database or a
    /// materialized view. The engine has every role Materialize has, its
    /// built-in ones too, so `mz_roles` and `mz_role_members` need no
    /// filter.
    pub fn lists_system_objects(self) -> bool {
        self.is_catalog()
            && !matches!(
                self,
                Relation::MaterializedViews
                    | Relation::Databases
                    | Relation::Roles
                    | Relation::RoleMembers
            )
    }

    /// The refusal of reading column `column`, if the engine cannot fill it
    /// as Materialize does: ids and oids (the engine allocates neither as
    /// Materialize does), the owners of schemas and databases (the engine
    /// records only items' owners), privileges, clusters, and the SQL
    /// Materialize prints normalized. Role ids are the exception: the
    /// engine allocates them as Materialize does (`u1` is `materialize`,
    /// then `u2`, ..., never reused), so an item's `owner_id`, every
    /// column of `mz_roles` but `oid`, and all of `mz_role_members`, are
    /// filled.
    pub fn refused_column(self, column: usize) -> Option<String> {
        let (name, _, _) = catalog_columns(self).get(column)?;
        let exact = match self {
            Relation::Roles => *name != "oid",
            Relation::RoleMembers => true,
            Relation::Schemas | Relation::Databases => *name == "name",
            _ => matches!(*name, "name" | "source_id" | "owner_id"),
        };
        (!exact).then(|| format!("column {}.{name}", self.name()))
    }
}
