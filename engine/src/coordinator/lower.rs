//! Lowering a plan to a dataflow description: catalog relations become
//! imports (an index of the relation if it has one, else the table or the
//! materialized view's own export, else the view's definition inlined),
//! introspection relations constants; then what nothing reads of the plan
//! is left uncomputed (`plan::demand`).

use std::collections::BTreeMap;

use super::builtin::Relation;
use super::catalog::{Catalog, Detail};
use super::catalog_rows;
use super::introspection::{self, Sources};
use super::Engine;
use crate::compute::peek;
use crate::plan::RelationPlan;
use crate::protocol::{DataflowDesc, Import};
use crate::recursion::{grown, recursion_limit_error, RECURSION_LIMIT};
use crate::repr::{GlobalId, Timestamp};

impl Engine {
    /// Builds a dataflow description for `plan` at `as_of`: catalog relations
    /// become imports (an index of the relation if it has one, else the table,
    /// else the view's definition inlined), introspection relations constants.
    pub(super) fn dataflow_desc(
        &mut self,
        id: u64,
        name: String,
        plan: RelationPlan,
        as_of: Timestamp,
    ) -> Result<DataflowDesc, String> {
        let mut imports = BTreeMap::new();
        let reports = self
            .reports
            .values()
            .next_back()
            .cloned()
            .unwrap_or_default();
        let subscribes = self.subscribe_exports();
        let roles = catalog_rows::roles(&self.roles.listed());
        let role_members = catalog_rows::role_members(&self.roles.membership);
        let owners = catalog_rows::owners(&self.catalog, |id| self.roles.owner_id(id));
        let sources = Sources {
            reports: &reports,
            subscribes: &subscribes,
            roles: &roles,
            role_members: &role_members,
            owners: &owners,
        };
        let plan = lower(&self.catalog, sources, plan, &mut imports, 1)?;
        // What nothing reads of an inlined view is not computed.
        let arities = |id| imports[&id].1;
        let every = (0..plan.arity(&arities)).collect();
        let refused = |id, column| Relation::by_id(id)?.refused_column(column);
        let plan = plan.demanded_refusing(&every, &arities, &refused)?;
        for (import_id, (import, _)) in &imports {
            if matches!(import, Import::Constant(_)) {
                continue;
            }
            let since = self.sinces[import_id];
            if since > as_of {
                return Err(peek::compaction_error(since, as_of));
            }
        }
        Ok(DataflowDesc {
            id,
            name,
            as_of,
            imports,
            plan,
            joins: self.config.joins,
        })
    }
}

impl Engine {
    /// The name of an introspection or catalog relation `desc` reads, a
    /// constant computed once: an export that reads one would keep it
    /// stale, where Materialize keeps it up to date.
    pub(super) fn constant_read(&self, desc: &DataflowDesc) -> Option<String> {
        let id = desc
            .imports
            .iter()
            .find_map(|(id, (import, _))| matches!(import, Import::Constant(_)).then_some(id))?;
        crate::plan::Resolver::name(&self.catalog, *id)
    }
}

/// `plan` with every relation it reads resolved against `catalog`, each
/// one recorded in `imports` with its arity; introspection relations are
/// computed from `sources`: the logging runtime's latest reports and the
/// live subscribes. `plan` sits at `depth` in the lowered plan: a view's
/// definition inlined in place of its name nests it deeper (a chain of
/// views each reading the last), and the lowered plan is held to
/// [`RECURSION_LIMIT`] here, where it is built, since rendering it, and
/// every other walk over it, recurses as deep; each level is lowered on a
/// stack grown as it needs (a level takes some 12 KiB in a debug build).
fn lower(
    catalog: &Catalog,
    sources: Sources<'_>,
    plan: RelationPlan,
    imports: &mut BTreeMap<GlobalId, (Import, usize)>,
    depth: usize,
) -> Result<RelationPlan, String> {
    if depth > RECURSION_LIMIT {
        return Err(recursion_limit_error());
    }
    grown(|| lower_within_limit(catalog, sources, plan, imports, depth))
}

/// One level of [`lower`], on a stack with room for it.
fn lower_within_limit(
    catalog: &Catalog,
    sources: Sources<'_>,
    plan: RelationPlan,
    imports: &mut BTreeMap<GlobalId, (Import, usize)>,
    depth: usize,
) -> Result<RelationPlan, String> {
    Ok(match plan {
        RelationPlan::Get(id) => {
            if let Some(relation) = Relation::by_id(id) {
                let rows = introspection::rows(relation, catalog, sources);
                imports.insert(id, (Import::Constant(rows), relation.columns().len()));
                return Ok(RelationPlan::Get(id));
            }
            let entry = catalog
                .get(id)
                .ok_or_else(|| format!("unknown catalog item '{id}'"))?;
            let arity = entry.columns.len();
            if let Some((index, detail)) = catalog.indexes_on(id).next() {
                let key = detail.key.clone();
                imports.insert(index.id, (Import::Index { id: index.id, key }, arity));
                RelationPlan::Get(index.id)
            } else {
                match &entry.detail {
                    Detail::Table { .. } => {
                        imports.insert(id, (Import::Table(id), arity));
                        RelationPlan::Get(id)
                    }
                    Detail::View { plan } => lower(catalog, sources, plan.clone(), imports, depth)?,
                    // Its export, the stand-in for its persist shard.
                    Detail::MaterializedView { export, .. } => {
                        let key = export.key.clone();
                        imports.insert(id, (Import::Index { id, key }, arity));
                        RelationPlan::Get(id)
                    }
                    Detail::Index(_) => {
                        return Err(format!("cannot read index {} as a relation", entry.name))
                    }
                }
            }
        }
        plan => plan.try_map_inputs(|input| lower(catalog, sources, input, imports, depth + 1))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::catalog::{Entry, IndexDetail};
    use crate::plan::SchemaId;
    use crate::repr::{Column, Datum, ScalarType};

    /// A catalog with table t (one column), an index on it when `indexed`,
    /// and a view v = `SELECT * FROM t WHERE true`.
    fn catalog(indexed: bool) -> (Catalog, GlobalId, Option<GlobalId>, GlobalId) {
        let mut catalog = Catalog::default();
        let columns = vec![Column {
            name: "a".into(),
            typ: ScalarType::Int32,
            nullable: false,
        }];
        let t = catalog.allocate_id();
        catalog.insert(Entry {
            id: t,
            name: "t".into(),
            schema: SchemaId::DEFAULT,
            columns: columns.clone(),
            detail: Detail::Table { keys: vec![] },
        });
        let index = indexed.then(|| {
            let i = catalog.allocate_id();
            catalog.insert(Entry {
                id: i,
                name: "t_idx".into(),
                schema: SchemaId::DEFAULT,
                columns: columns.clone(),
                detail: Detail::Index(IndexDetail {
                    on: t,
                    key: vec![0],
                    imports: vec![t],
                }),
            });
            i
        });
        let v = catalog.allocate_id();
        let plan = RelationPlan::Filter {
            input: Box::new(RelationPlan::Get(t)),
            predicates: Vec::new(),
        };
        catalog.insert(Entry {
            id: v,
            name: "v".into(),
            schema: SchemaId::DEFAULT,
            columns,
            detail: Detail::View { plan },
        });
        (catalog, t, index, v)
    }

    fn lowered(catalog: &Catalog, id: GlobalId) -> Result<(RelationPlan, Vec<String>), String> {
        let mut imports = BTreeMap::new();
        let plan = lower(
            catalog,
            Sources::default(),
            RelationPlan::Get(id),
            &mut imports,
            1,
        )?;
        let imports = imports
            .into_iter()
            .map(|(id, (import, arity))| format!("{id} {import:?} {arity}"))
            .collect();
        Ok((plan, imports))
    }

    #[test]
    fn an_unindexed_table_is_read_as_the_table() {
        let (catalog, t, _, _) = catalog(false);
        let (plan, imports) = lowered(&catalog, t).unwrap();
        assert_eq!(plan, RelationPlan::Get(t));
        assert_eq!(imports, vec![format!("{t} Table({t:?}) 1")]);
    }

    #[test]
    fn an_indexed_relation_is_read_through_its_index() {
        let (catalog, t, index, _) = catalog(true);
        let index = index.unwrap();
        let (plan, imports) = lowered(&catalog, t).unwrap();
        assert_eq!(plan, RelationPlan::Get(index));
        assert_eq!(
            imports,
            vec![format!("{index} Index {{ id: {index:?}, key: [0] }} 1")]
        );
    }

    #[test]
    fn a_view_is_inlined() {
        let (catalog, t, _, v) = catalog(false);
        let (plan, imports) = lowered(&catalog, v).unwrap();
        let expected = RelationPlan::Filter {
            input: Box::new(RelationPlan::Get(t)),
            predicates: Vec::new(),
        };
        assert_eq!(plan, expected);
        assert_eq!(imports, vec![format!("{t} Table({t:?}) 1")]);
    }

    /// Each view of a chain reads the last one through a filter: inlined,
    /// the chain nests one level a view, and lowering refuses a chain that
    /// nests deeper than the limit, where it would build it.
    #[test]
    fn a_chain_of_views_nests_at_most_to_the_recursion_limit() {
        let (mut catalog, t, _, _) = catalog(false);
        let mut last = t;
        let mut chain = Vec::new();
        for i in 0..RECURSION_LIMIT + 10 {
            let id = catalog.allocate_id();
            let columns = catalog.get(t).unwrap().columns.clone();
            let plan = RelationPlan::Filter {
                input: Box::new(RelationPlan::Get(last)),
                predicates: Vec::new(),
            };
            let name = format!("v{i}");
            let detail = Detail::View { plan };
            catalog.insert(Entry {
                id,
                name,
                schema: SchemaId::DEFAULT,
                columns,
                detail,
            });
            chain.push(id);
            last = id;
        }
        // The view at position i nests i + 2 deep: i + 1 filters over t.
        assert!(lowered(&catalog, chain[RECURSION_LIMIT - 2]).is_ok());
        for too_deep in [RECURSION_LIMIT - 1, RECURSION_LIMIT + 9] {
            let refused = lowered(&catalog, chain[too_deep]);
            assert_eq!(refused.err(), Some(recursion_limit_error()));
        }
    }

    #[test]
    fn an_introspection_relation_is_a_constant_computed_from_the_catalog() {
        let (catalog, _, _, _) = catalog(false);
        let objects = Relation::Objects.id();
        let mut imports = BTreeMap::new();
        let plan = lower(
            &catalog,
            Sources::default(),
            RelationPlan::Get(objects),
            &mut imports,
            1,
        )
        .unwrap();
        assert_eq!(plan, RelationPlan::Get(objects));
        let Some((Import::Constant(rows), 3)) = imports.get(&objects) else {
            panic!("{imports:?}");
        };
        let names: Vec<&Datum> = rows.iter().map(|row| &row[1]).collect();
        assert_eq!(names, [&Datum::Text("t".into()), &Datum::Text("v".into())]);
    }

    #[test]
    fn an_index_is_not_a_relation() {
        let (catalog, _, index, _) = catalog(true);
        let error = lowered(&catalog, index.unwrap()).unwrap_err();
        assert_eq!(error, "cannot read index t_idx as a relation");
    }
}
