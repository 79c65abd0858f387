//! Introspection relations, computed from the catalog and from what the
//! workers of the runtime that keeps logging report about their exports.
//!
//! Only the logging runtime's reports go in, so every relation reads the
//! same whether sharing is on or off. Subscribes run on the serving runtime,
//! which does not log: the coordinator, which runs them, reports them.

use std::collections::{BTreeMap, BTreeSet};

use super::builtin::Relation;
use super::catalog::Catalog;
use crate::plan::ObjectKind;
use crate::protocol::WorkerReport;
use crate::repr::{Datum, GlobalId, Row};

/// What introspection is computed from besides the catalog.
#[derive(Clone, Copy, Default)]
pub struct Sources<'a> {
    /// The logging runtime's latest worker reports.
    pub reports: &'a [WorkerReport],
    /// The live subscribes, as the coordinator knows them.
    pub subscribes: &'a [SubscribeExport],
    /// The rows of `mz_roles` and `mz_role_members`, from the roles.
    pub roles: &'a [Row],
    pub role_members: &'a [Row],
    /// Each catalog item's owner's role id (`catalog_rows::owners`).
    pub owners: &'a [(GlobalId, String)],
}

/// A live subscribe: a compute export with a dataflow and a frontier, but
/// no arrangement.
#[derive(Clone, Debug)]
pub struct SubscribeExport {
    pub dataflow_id: u64,
    pub name: String,
    /// The collections its dataflow imports.
    pub inputs: Vec<GlobalId>,
    /// Every change before it has been emitted.
    pub frontier: u64,
}

impl SubscribeExport {
    /// Its export id: transient, as the real system names a subscribe's.
    fn id(&self) -> Datum {
        Datum::Text(format!("t{}", self.dataflow_id))
    }
}

/// The relation's rows, given what the logging runtime's workers and the
/// coordinator report.
pub fn rows(relation: Relation, catalog: &Catalog, sources: Sources<'_>) -> Vec<Row> {
    match relation {
        Relation::Roles => return sources.roles.to_vec(),
        Relation::RoleMembers => return sources.role_members.to_vec(),
        _ if relation.is_catalog() => {
            return super::catalog_rows::rows(relation, catalog, sources.owners)
        }
        _ => {}
    }
    let mut rows = reported_rows(relation, catalog, sources.reports);
    for s in sources.subscribes {
        let dataflow = Datum::Int64(s.dataflow_id as i64);
        match relation {
            Relation::ComputeExports => rows.push(vec![s.id(), dataflow]),
            Relation::ComputeDependencies => rows.extend(
                s.inputs
                    .iter()
                    .map(|input| vec![s.id(), Datum::Text(input.to_string())]),
            ),
            Relation::Dataflows => rows.push(vec![
                dataflow,
                Datum::Text(format!("Dataflow: subscribe {}", s.name)),
            ]),
            Relation::ComputeFrontiers => rows.push(vec![s.id(), Datum::Int64(s.frontier as i64)]),
            _ => {}
        }
    }
    rows
}

/// The rows computed from the catalog and the workers' reports.
fn reported_rows(relation: Relation, catalog: &Catalog, reports: &[WorkerReport]) -> Vec<Row> {
    // A materialized view's export stands in for its persist shard: in
    // Materialize it is no arrangement, and only an index logs its errors
    // (`log_dataflow_errors` in `export_index`), so it has no row in
    // these; it is a compute export and a dataflow like any other.
    let of_arrangements;
    let reports = match relation {
        Relation::ErrorCountsRaw
        | Relation::ErrorCountsPerWorker
        | Relation::ErrorCounts
        | Relation::ArrangementFrontiers
        | Relation::ArrangementSizes => {
            of_arrangements = without_materialized_views(catalog, reports);
            &of_arrangements[..]
        }
        _ => reports,
    };
    let text = |id: GlobalId| Datum::Text(id.to_string());
    let int = |i: i64| Datum::Int64(i);
    let opt = |t: Option<u64>| t.map_or(Datum::Null, |t| Datum::Int64(t as i64));
    let worker0 = reports.iter().find(|r| r.worker == 0);
    match relation {
        Relation::Objects => catalog
            .entries()
            .map(|e| {
                vec![
                    text(e.id),
                    Datum::Text(e.name.clone()),
                    Datum::Text(match e.kind() {
                        // Materialize's `mz_objects.type` for one.
                        ObjectKind::MaterializedView => "materialized-view".into(),
                        kind => kind.name().into(),
                    }),
                ]
            })
            .collect(),
        Relation::ComputeExports => worker0
            .map(|r| {
                r.exports
                    .iter()
                    .map(|e| vec![text(e.id), int(e.dataflow_id as i64)])
                    .collect()
            })
            .unwrap_or_default(),
        Relation::ComputeDependencies => worker0
            .map(|r| {
                r.exports
                    .iter()
                    .flat_map(|e| {
                        dependencies(catalog, e.id)
                            .into_iter()
                            .map(move |d| vec![text(e.id), text(d)])
                    })
                    .collect()
            })
            .unwrap_or_default(),
        Relation::Dataflows => worker0
            .map(|r| {
                r.dataflows
                    .iter()
                    .map(|(id, name)| vec![int(*id as i64), Datum::Text(name.clone())])
                    .collect()
            })
            .unwrap_or_default(),
        Relation::ErrorCountsRaw => raw_counts(reports).into_iter().map(count_row).collect(),
        Relation::ErrorCountsPerWorker => per_worker_counts(reports)
            .into_iter()
            .map(count_row)
            .collect(),
        Relation::ErrorCounts => {
            let mut totals: BTreeMap<GlobalId, i64> = BTreeMap::new();
            for (id, _worker, count) in per_worker_counts(reports) {
                *totals.entry(id).or_insert(0) += count;
            }
            totals
                .into_iter()
                .filter(|(_, c)| *c != 0)
                .map(|(id, c)| vec![text(id), int(c)])
                .collect()
        }
        Relation::ArrangementFrontiers => reports
            .iter()
            .flat_map(|r| {
                r.exports.iter().map(move |e| {
                    vec![text(e.id), int(r.worker as i64), opt(e.since), opt(e.upper)]
                })
            })
            .collect(),
        Relation::ArrangementSizes => reports
            .iter()
            .flat_map(|r| {
                r.exports
                    .iter()
                    .map(move |e| vec![text(e.id), int(r.worker as i64), int(e.records)])
            })
            .collect(),
        Relation::LirMapping => worker0
            .map(|r| {
                r.exports
                    .iter()
                    .flat_map(|e| {
                        e.joins
                            .iter()
                            .map(move |j| vec![text(e.id), Datum::Text(j.clone())])
                    })
                    .collect()
            })
            .unwrap_or_default(),
        // Computed apart (`catalog_rows`, the roles' from `roles`).
        Relation::Tables
        | Relation::Views
        | Relation::MaterializedViews
        | Relation::Indexes
        | Relation::Schemas
        | Relation::Databases
        | Relation::Roles
        | Relation::RoleMembers => vec![],
        // An export's frontier: the least upper over its workers.
        Relation::ComputeFrontiers => {
            let mut uppers: BTreeMap<GlobalId, Option<u64>> = BTreeMap::new();
            for e in reports.iter().flat_map(|r| &r.exports) {
                let upper = uppers.entry(e.id).or_insert(e.upper);
                *upper = crate::repr::meet(*upper, e.upper);
            }
            uppers
                .into_iter()
                .map(|(id, upper)| vec![text(id), opt(upper)])
                .collect()
        }
    }
}

/// `reports` without the exports of materialized views.
fn without_materialized_views(catalog: &Catalog, reports: &[WorkerReport]) -> Vec<WorkerReport> {
    let materialized = |id: GlobalId| {
        catalog
            .get(id)
            .is_some_and(|e| e.kind() == ObjectKind::MaterializedView)
    };
    let mut reports = reports.to_vec();
    for r in &mut reports {
        r.exports.retain(|e| !materialized(e.id));
    }
    reports
}

/// What an export's dataflow imports.
fn dependencies(catalog: &Catalog, export: GlobalId) -> Vec<GlobalId> {
    catalog
        .get(export)
        .and_then(|e| e.export())
        .map(|d| d.imports.clone())
        .unwrap_or_default()
}

type Count = (GlobalId, usize, i64);

fn count_row((id, worker, count): Count) -> Row {
    vec![
        Datum::Text(id.to_string()),
        Datum::Int64(worker as i64),
        Datum::Int64(count),
    ]
}

/// Counts logged by the exports that maintain their errors, non-zero only.
fn raw_counts(reports: &[WorkerReport]) -> BTreeSet<Count> {
    reports
        .iter()
        .flat_map(|r| {
            r.exports
                .iter()
                .filter(|e| e.logged_by.is_none() && e.errors != 0)
                .map(move |e| (e.id, r.worker, e.errors))
        })
        .collect()
}

/// Raw counts, plus each re-export's inherited from the export on the same
/// worker that logs the errors they hold together.
fn per_worker_counts(reports: &[WorkerReport]) -> BTreeSet<Count> {
    let raw = raw_counts(reports);
    let mut out = raw.clone();
    for r in reports {
        for e in &r.exports {
            let Some(owner) = e.logged_by else { continue };
            let logged = raw
                .iter()
                .filter(|(id, w, _)| *id == owner && *w == r.worker);
            out.extend(logged.map(|(_, w, count)| (e.id, *w, *count)));
        }
    }
    out
}
