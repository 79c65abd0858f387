//! The model's catalog and clock: tables with their whole history (one
//! snapshot per commit time), views as their query, indexes as the
//! (relation, key) they arrange, ids `uN` in creation order, and what the
//! model has lost track of after a statement it could not follow.

use crate::body::evaluate;
use crate::query::{Catalog, Relation};
use crate::scalar::Unsupported;
use engine::repr::{Datum, Row, Timestamp};
use sqlparser::ast;
use std::collections::BTreeMap;

pub use crate::types::Type;

#[derive(Clone, Debug)]
pub enum Kind {
    Table {
        columns: Vec<(String, Type)>,
        /// `(commit time, rows from then on)`, oldest first.
        history: Vec<(Timestamp, Vec<Row>)>,
        /// A write the model could not follow touched it.
        opaque: bool,
    },
    View {
        query: Box<ast::Query>,
        columns: Vec<String>,
        /// The relations its FROM names.
        deps: Vec<String>,
    },
    Index {
        on: String,
        key: Vec<String>,
    },
    /// Created or dropped by a statement the model could not follow.
    Unknown,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub id: u64,
    pub name: String,
    pub kind: Kind,
}

/// Everything the model knows of the engine's catalog and clock.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub now: Timestamp,
    pub next_id: u64,
    pub objects: BTreeMap<String, Object>,
    /// Ids, names or introspection may differ from the model's.
    pub catalog_uncertain: bool,
    /// A subscribe ran: it is a compute export of its own, whose error
    /// counts the model does not claim.
    pub subscribed: bool,
    /// A write may or may not have advanced the clock.
    pub time_uncertain: bool,
    /// A pending named peek holds an index that was dropped: the engine
    /// keeps maintaining it (and counting its errors) until the peek is
    /// answered, which the model does not claim.
    pub dropped_index_held: bool,
}

impl State {
    pub fn new() -> State {
        State {
            next_id: 1,
            ..State::default()
        }
    }

    pub fn create(&mut self, name: &str, kind: Kind) {
        let id = self.next_id;
        self.next_id += 1;
        let name = name.to_string();
        self.objects.insert(name.clone(), Object { id, name, kind });
    }

    /// The relation `name` at time `t`.
    pub fn relation_at(&self, name: &str, t: Timestamp) -> Result<Relation, Unsupported> {
        self.catalog_at(t).relation(name)
    }

    /// The catalog as a read at time `t` sees it.
    pub fn catalog_at(&self, t: Timestamp) -> At<'_> {
        At {
            state: self,
            t,
            views: 0,
        }
    }

    /// Whether relation `name` reads `target`, directly or through views.
    pub fn depends_on(&self, name: &str, target: &str) -> bool {
        name == target
            || matches!(self.objects.get(name), Some(Object { kind: Kind::View { deps, .. }, .. })
                if deps.iter().any(|d| self.depends_on(d, target)))
    }

    /// Whether relation `name` reads a table, directly or through views.
    pub fn reads_a_table(&self, name: &str) -> bool {
        match self.objects.get(name).map(|o| &o.kind) {
            Some(Kind::Table { .. }) => true,
            Some(Kind::View { deps, .. }) => deps.iter().any(|d| self.reads_a_table(d)),
            _ => false,
        }
    }

    /// Live objects that name `name` (views reading it, indexes on it),
    /// in name order.
    pub fn dependents(&self, name: &str) -> Vec<&Object> {
        self.objects
            .values()
            .filter(|o| match &o.kind {
                Kind::View { deps, .. } => deps.iter().any(|d| d == name),
                Kind::Index { on, .. } => on == name,
                _ => false,
            })
            .collect()
    }

    /// Live indexes in id order.
    pub fn indexes(&self) -> Vec<&Object> {
        let mut out: Vec<&Object> = self
            .objects
            .values()
            .filter(|o| matches!(o.kind, Kind::Index { .. }))
            .collect();
        out.sort_by_key(|o| o.id);
        out
    }

    /// `mz_compute_error_counts` now: each live index's error multiplicity,
    /// which is its relation's (a re-export counts them as its target does;
    /// a dropped index an importer still holds is counted by no export, its
    /// errors are in the importer's own relation).
    fn error_counts(&self) -> Result<Relation, Unsupported> {
        if self.catalog_uncertain {
            return Err("error counts after a statement the model could not follow");
        }
        if self.subscribed {
            return Err("error counts after a subscribe");
        }
        if self.dropped_index_held {
            return Err("error counts while a pending peek holds a dropped index");
        }
        let mut rows = vec![];
        for index in self.indexes() {
            let Kind::Index { on, .. } = &index.kind else {
                unreachable!("indexes() holds indexes only")
            };
            let errs = self.relation_at(on, self.now)?.errs.len();
            if errs > 0 {
                rows.push(vec![
                    Datum::Text(format!("u{}", index.id)),
                    Datum::Int64(errs as i64),
                ]);
            }
        }
        Ok(Relation {
            columns: vec!["export_id".into(), "count".into()],
            types: vec![],
            rows,
            errs: vec![],
        })
    }

    /// `mz_objects`: id, name, type of every live table, view and index.
    fn objects_relation(&self) -> Result<Relation, Unsupported> {
        if self.catalog_uncertain {
            return Err("mz_objects after a statement the model could not follow");
        }
        let rows = self
            .objects
            .values()
            .map(|o| {
                let typ = match o.kind {
                    Kind::Table { .. } => "table",
                    Kind::View { .. } => "view",
                    Kind::Index { .. } => "index",
                    Kind::Unknown => unreachable!("unknown objects make the catalog uncertain"),
                };
                vec![
                    Datum::Text(format!("u{}", o.id)),
                    Datum::Text(o.name.clone()),
                    Datum::Text(typ.into()),
                ]
            })
            .collect();
        Ok(Relation {
            columns: vec!["id".into(), "name".into(), "type".into()],
            types: vec![],
            rows,
            errs: vec![],
        })
    }
}

/// The catalog as a query at time `t` sees it.
pub struct At<'a> {
    state: &'a State,
    t: Timestamp,
    /// How many views deep the relation being read is.
    views: usize,
}

/// How many views deep the model follows a read: each one evaluated inside
/// the last is a level of recursion, and a long chain (which the engine
/// refuses past its recursion limit) is no claim here.
const DEEPEST_VIEW: usize = 16;

impl Catalog for At<'_> {
    fn relation(&self, name: &str) -> Result<Relation, Unsupported> {
        let introspection = name.starts_with("mz_");
        if introspection && self.t != self.state.now {
            return Err("introspection at a time other than now");
        }
        match name {
            "mz_compute_error_counts" => return self.state.error_counts(),
            "mz_objects" => return self.state.objects_relation(),
            _ if introspection => return Err("an introspection relation outside the model"),
            _ => {}
        }
        let object = self
            .state
            .objects
            .get(name)
            .ok_or("a relation the model does not know")?;
        match &object.kind {
            Kind::Table { opaque: true, .. } => {
                Err("a table a write the model could not follow touched")
            }
            Kind::Table {
                columns, history, ..
            } => {
                let rows = history
                    .iter()
                    .rev()
                    .find(|(at, _)| *at <= self.t)
                    .map(|(_, rows)| rows.clone())
                    .ok_or("a table read before it existed")?;
                Ok(Relation {
                    columns: columns.iter().map(|(n, _)| n.clone()).collect(),
                    types: columns.iter().map(|(_, t)| Some(*t)).collect(),
                    rows,
                    errs: vec![],
                })
            }
            Kind::View { query, columns, .. } => {
                if self.views >= DEEPEST_VIEW {
                    return Err("a chain of views deeper than the model follows");
                }
                let inner = At {
                    views: self.views + 1,
                    ..*self
                };
                let (mut r, _) = evaluate(query, &inner)?;
                // Materialize computes a failing column of a view no index
                // keeps only where a read reads it: the model, which
                // evaluates the view whole, does not say.
                let indexed = (self.state.dependents(name).iter())
                    .any(|o| matches!(o.kind, Kind::Index { .. }));
                if !r.errs.is_empty() && !indexed {
                    return Err("an error in a view: computed only where it is read");
                }
                r.columns = columns.clone();
                Ok(r)
            }
            Kind::Index { .. } => Err("an index named as a relation"),
            Kind::Unknown => Err("a relation the model lost track of"),
        }
    }
}
