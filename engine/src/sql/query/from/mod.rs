//! FROM: tables, views, table functions and subqueries, side by side in
//! one plan and the scope their columns are named in. Inner joins and
//! commas merge into one join (their equalities its equivalence classes);
//! `join` plans every join form onto it.

mod join;
mod lateral;
mod table_function;

pub(super) use join::join_kind;

use sqlparser::ast::{TableAlias, TableFactor, TableWithJoins};

use super::super::expr::{ExprContext, Outer, OuterRefused, Prefix, Scope};
use super::super::{clauses, forms, ident, relation};
use super::{filter_plan, Planner};
use crate::plan::{
    with_top_k, BinaryOp, JoinKind, RelationPlan, ScalarExpr, SchemaId, SimpleSelect,
};
use crate::repr::unsupported;
use crate::repr::Column;
use lateral::WrongSide;
use table_function::{plain_args, push_below};

/// The FROM clause: its relations side by side, and the predicates (ON
/// conditions, then WHERE) over their concatenated columns.
#[derive(Default)]
pub struct From {
    /// Each relation and its arity.
    inputs: Vec<(RelationPlan, usize)>,
    tables: Vec<String>,
    /// The names of `tables` that are a relation's of another schema than
    /// the default, unaliased: Materialize tells two such relations of
    /// one name apart by their schemas, and the engine's scope cannot.
    elsewhere: Vec<String>,
    /// What the SELECT over it can name.
    pub scope: Scope,
    /// The join and WHERE conditions, conjunct by conjunct.
    pub predicates: Vec<ScalarExpr>,
    /// Where the FROM list's current item (a relation and its joins)
    /// starts: its first input, its first column, its first place in `*`.
    chain: (usize, usize, usize),
}

/// The FROM list; a nested query's starts with its outer row (`prefix`),
/// which no name finds, and names it does not have are `outer`'s.
pub fn plan_from(
    planner: &Planner,
    from: &[TableWithJoins],
    prefix: Option<&Prefix>,
    outer: Option<&dyn Outer>,
) -> Result<From, String> {
    let mut out = From::default();
    if let Some(p) = prefix {
        let width = p.columns.len();
        let local = RelationPlan::Local {
            id: p.id,
            arity: width,
        };
        out.inputs.push((local, width));
        out.scope = Scope {
            star: vec![],
            hidden: width,
            ..Scope::relation("", p.columns.clone())
        };
    }
    for table in from {
        out.chain = (
            out.inputs.len(),
            out.scope.items.len(),
            out.scope.star.len(),
        );
        out.add(planner, &table.relation, JoinKind::Inner, outer)?;
        for join in &table.joins {
            out.join(planner, join, outer)?;
        }
    }
    Ok(out)
}

impl From {
    /// Adds a FROM item, the right side of a join of `kind`; a subquery in
    /// it sees `outer`'s names only to refuse them, and a LATERAL one the
    /// FROM's so far too (`lateral`).
    pub fn add(
        &mut self,
        planner: &Planner,
        factor: &TableFactor,
        kind: JoinKind,
        outer: Option<&dyn Outer>,
    ) -> Result<(), String> {
        // The columns of the FROM so far that the item's plan carries before
        // its own (a table function naming them is a `FlatMap` over them).
        let mut carried = 0;
        let mut elsewhere = false;
        let (name, plan, columns, alias) = match factor {
            TableFactor::Table {
                name,
                alias,
                args,
                with_hints,
                version,
                with_ordinality,
                partitions,
                json_path,
                sample,
                index_directives,
                inheritance,
            } => {
                // Taken apart to the last field: a clause a new sqlparser adds
                // fails to compile here until it is planned or refused.
                clauses::refuse(&[
                    (!with_hints.is_empty(), "table hints"),
                    (version.is_some(), "FOR SYSTEM_TIME"),
                    (*with_ordinality && args.is_none(), "WITH ORDINALITY"),
                    (!partitions.is_empty(), "PARTITION"),
                    (json_path.is_some(), "JSON path"),
                    (sample.is_some(), "TABLESAMPLE"),
                    (!index_directives.is_empty(), "index hints"),
                    (inheritance.is_some(), "ONLY"),
                ])?;
                let (name, plan, columns) = match args {
                    None if planner.cte(name).is_some() => planner.cte(name).expect("a CTE"),
                    None => {
                        let (name, id, columns) = relation(planner.catalog, name)?;
                        elsewhere =
                            alias.is_none() && planner.catalog.schema_of(id) != SchemaId::DEFAULT;
                        (name, RelationPlan::Get(id), columns)
                    }
                    Some(args) => {
                        let args = plain_args(args)?;
                        let call = self.table_call(name, args, *with_ordinality, outer)?;
                        let call = call.aliased(alias.as_ref());
                        self.function_item(call, kind, &mut carried)?
                    }
                };
                (name, plan, columns, alias)
            }
            TableFactor::UNNEST {
                alias,
                array_exprs,
                with_offset,
                with_offset_alias,
                with_ordinality,
            } => {
                clauses::refuse(&[
                    (*with_offset || with_offset_alias.is_some(), "WITH OFFSET"),
                    (array_exprs.len() != 1, "unnest of other than one argument"),
                ])?;
                let exprs: Vec<_> = array_exprs.iter().collect();
                let call = self.call("unnest", &exprs, *with_ordinality, outer)?;
                let call = call.aliased(alias.as_ref());
                let (name, plan, columns) = self.function_item(call, kind, &mut carried)?;
                (name, plan, columns, alias)
            }
            TableFactor::Derived {
                lateral: true,
                subquery,
                alias,
                sample: None,
            } if kind == JoinKind::Inner => {
                return self.lateral(planner, subquery, alias.as_ref(), outer)
            }
            TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample: None,
            } => {
                let refusing = outer.map(|outer| OuterRefused {
                    outer,
                    what: "a subquery in FROM naming an outer query's columns",
                });
                let names = refusing.as_ref().map(|r| r as &dyn Outer);
                // A RIGHT or FULL JOIN's LATERAL subquery sees its left
                // side only to fail.
                let wrong_side = lateral.then(|| WrongSide {
                    cx: ExprContext::within(&self.scope, "", names),
                    start: self.chain.1,
                });
                let names = wrong_side.as_ref().map_or(names, |w| Some(w as &dyn Outer));
                let planned = planner.query(subquery, None, names, true)?;
                let plan = with_top_k(planned.plan, planned.finishing);
                (String::new(), plan, planned.columns, alias)
            }
            TableFactor::Derived {
                sample: Some(_), ..
            } => return Err(unsupported("TABLESAMPLE")),
            other => return Err(unsupported(forms::table_factor(other))),
        };
        let (table, columns) = aliased(name, columns, alias.as_ref())?;
        if !table.is_empty() && self.tables.contains(&table) {
            if elsewhere || self.elsewhere.contains(&table) {
                return Err(unsupported(format!(
                    "two relations named {table} in one FROM, of two schemas"
                )));
            }
            return Err(format!("table name \"{table}\" specified more than once"));
        }
        if elsewhere {
            self.elsewhere.push(table.clone());
        }
        let plan = match carried {
            0 => plan,
            _ => self.flat_map_onto(plan),
        };
        self.inputs.push((plan, carried + columns.len()));
        self.scope.extend(Scope::relation(&table, columns));
        self.tables.push(table);
        Ok(())
    }

    /// The FROM so far as one plan (its inputs joined under its
    /// predicates), taken out of it: the input a `LATERAL` item or a table
    /// function naming its columns is computed over, and then replaces.
    fn take_so_far(&mut self) -> RelationPlan {
        let left = From {
            inputs: std::mem::take(&mut self.inputs),
            predicates: std::mem::take(&mut self.predicates),
            ..From::default()
        }
        .into_plan();
        self.chain.0 = 0;
        left
    }

    /// The fast-path shape, if this is a single relation.
    /// Whether the FROM is constant (nothing read from the catalog, no
    /// outer row, no CTE): Materialize's constant folding then evaluates
    /// the select list before its `reduce` rewrites it.
    pub fn is_constant(&self) -> bool {
        self.inputs.iter().all(|(plan, _)| plan.is_constant())
    }

    pub fn simple(&self) -> Option<SimpleSelect> {
        match self.inputs.as_slice() {
            [(RelationPlan::Get(relation), _)] => Some(SimpleSelect {
                relation: *relation,
                predicates: self.predicates.clone(),
            }),
            _ => None,
        }
    }

    /// The join of the inputs: equalities between columns of different
    /// inputs become its equivalence classes, other predicates a filter.
    pub fn into_plan(self) -> RelationPlan {
        let mut starts = vec![];
        let mut arity = 0;
        for (_, n) in &self.inputs {
            starts.push(arity);
            arity += n;
        }
        let input_of = |column: usize| starts.iter().rposition(|s| *s <= column);
        let mut classes: Vec<Vec<usize>> = vec![];
        let mut filters = vec![];
        for p in self.predicates {
            match &p {
                ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                    (ScalarExpr::Column(a), ScalarExpr::Column(b))
                        if input_of(*a) != input_of(*b) =>
                    {
                        merge(&mut classes, *a, *b)
                    }
                    _ => filters.push(p),
                },
                _ => filters.push(p),
            }
        }
        for class in &mut classes {
            class.sort();
            class.dedup();
        }
        classes.sort();
        let first_width = self.inputs.first().map_or(0, |(p, n)| match p {
            RelationPlan::FlatMap { func, .. } => n - func.output_arity(),
            _ => 0,
        });
        let mut inputs: Vec<RelationPlan> = self.inputs.into_iter().map(|(p, _)| p).collect();
        let filters = match inputs.first_mut() {
            Some(first) => push_below(first, first_width, filters),
            None => filters,
        };
        let plan = match inputs.len() {
            0 => RelationPlan::Constant {
                rows: vec![vec![]],
                arity: 0,
            },
            1 => inputs.pop().expect("one input"),
            _ => RelationPlan::Join {
                inputs,
                equivalences: classes,
            },
        };
        filter_plan(plan, filters)
    }
}

/// A FROM item's name and columns under its alias: `AS x` renames the
/// relation, `AS x (a, b)` its first columns too.
fn aliased(
    name: String,
    mut columns: Vec<Column>,
    alias: Option<&TableAlias>,
) -> Result<(String, Vec<Column>), String> {
    let Some(alias) = alias else {
        return Ok((name, columns));
    };
    let table = ident(&alias.name);
    if alias.columns.len() > columns.len() {
        return Err(format!(
            "{table} has {} columns available but {} columns specified",
            columns.len(),
            alias.columns.len()
        ));
    }
    for (column, renamed) in columns.iter_mut().zip(&alias.columns) {
        if renamed.data_type.is_some() {
            return Err(unsupported(format!("column alias types: {alias}")));
        }
        column.name = ident(&renamed.name);
    }
    Ok((table, columns))
}

/// Adds `a = b` to the equivalence classes.
pub fn merge(classes: &mut Vec<Vec<usize>>, a: usize, b: usize) {
    let find = |classes: &Vec<Vec<usize>>, x: usize| classes.iter().position(|c| c.contains(&x));
    match (find(classes, a), find(classes, b)) {
        (Some(i), Some(j)) if i == j => {}
        (Some(i), Some(j)) => {
            let moved = classes.remove(i.max(j));
            classes[i.min(j)].extend(moved);
        }
        (Some(i), None) => classes[i].push(b),
        (None, Some(j)) => classes[j].push(a),
        (None, None) => classes.push(vec![a, b]),
    }
}
