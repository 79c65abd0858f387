//! Lowering a plan to a dataflow description: catalog relations become
//! imports (an index of the relation if it has one, else the table, else
//! the view's definition inlined), introspection relations constants.

use std::collections::BTreeMap;

use super::Engine;
use crate::builtin::Relation;
use crate::catalog::Detail;
use crate::introspection;
use crate::peek;
use crate::plan::RelationPlan;
use crate::protocol::{DataflowDesc, Import};
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
        let plan = self.lower(plan, &mut imports)?;
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
        })
    }

    pub(super) fn lower(
        &self,
        plan: RelationPlan,
        imports: &mut BTreeMap<GlobalId, (Import, usize)>,
    ) -> Result<RelationPlan, String> {
        let lower = |p: Box<RelationPlan>, imports: &mut BTreeMap<GlobalId, (Import, usize)>| {
            self.lower(*p, imports).map(Box::new)
        };
        Ok(match plan {
            RelationPlan::Get(id) => {
                if let Some(relation) = Relation::by_id(id) {
                    let reports = self
                        .reports
                        .values()
                        .next_back()
                        .cloned()
                        .unwrap_or_default();
                    let rows = introspection::rows(relation, &self.catalog, &reports);
                    imports.insert(id, (Import::Constant(rows), relation.columns().len()));
                    return Ok(RelationPlan::Get(id));
                }
                let entry = self
                    .catalog
                    .get(id)
                    .ok_or_else(|| format!("unknown catalog item '{id}'"))?;
                let arity = entry.columns.len();
                if let Some((index, _)) = self.catalog.indexes_on(id).next() {
                    imports.insert(index.id, (Import::Index(index.id), arity));
                    RelationPlan::Get(index.id)
                } else {
                    match &entry.detail {
                        Detail::Table => {
                            imports.insert(id, (Import::Table(id), arity));
                            RelationPlan::Get(id)
                        }
                        Detail::View { plan } => self.lower(plan.clone(), imports)?,
                        Detail::Index(_) => {
                            return Err(format!("cannot read index {} as a relation", entry.name))
                        }
                    }
                }
            }
            RelationPlan::Constant { rows, arity } => RelationPlan::Constant { rows, arity },
            RelationPlan::Map { input, exprs } => RelationPlan::Map {
                input: lower(input, imports)?,
                exprs,
            },
            RelationPlan::Filter { input, predicates } => RelationPlan::Filter {
                input: lower(input, imports)?,
                predicates,
            },
            RelationPlan::Project { input, columns } => RelationPlan::Project {
                input: lower(input, imports)?,
                columns,
            },
            RelationPlan::Join {
                inputs,
                equivalences,
            } => RelationPlan::Join {
                inputs: inputs
                    .into_iter()
                    .map(|i| self.lower(i, imports))
                    .collect::<Result<_, _>>()?,
                equivalences,
            },
            RelationPlan::Reduce {
                input,
                group_key,
                aggregates,
                global,
            } => RelationPlan::Reduce {
                input: lower(input, imports)?,
                group_key,
                aggregates,
                global,
            },
            RelationPlan::Distinct { input } => RelationPlan::Distinct {
                input: lower(input, imports)?,
            },
        })
    }
}
