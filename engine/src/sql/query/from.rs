//! FROM: tables, views and table functions, joined by inner equi-joins
//! (their equivalence classes merged) and left joins, into one plan and
//! the scope its columns are named in.

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, JoinConstraint, JoinOperator, ObjectName, TableFactor,
    TableFunctionArgs, TableWithJoins,
};

use super::super::expr::{ExprContext, Scope, Typed};
use super::super::{forms, ident, object_name, relation};
use super::filter;
use crate::plan::{BinaryOp, RelationPlan, Resolver, ScalarExpr, SimpleSelect};
use crate::recursion::{recursion_limit_error, RECURSION_LIMIT};
use crate::repr::Column;
use crate::repr::{unsupported, Datum, ScalarType};

/// The FROM clause: its relations side by side, and the predicates (ON
/// conditions, then WHERE) over their concatenated columns.
#[derive(Default)]
pub struct From {
    /// Each relation and its arity.
    inputs: Vec<(RelationPlan, usize)>,
    tables: Vec<String>,
    /// What the SELECT over it can name.
    pub scope: Scope,
    /// The join and WHERE conditions, conjunct by conjunct.
    pub predicates: Vec<ScalarExpr>,
}

pub fn plan_from(catalog: &dyn Resolver, from: &[TableWithJoins]) -> Result<From, String> {
    let mut out = From::default();
    for table in from {
        out.add(catalog, &table.relation)?;
        for join in &table.joins {
            if let Some(on) = left_join_condition(&join.join_operator)? {
                out.left_join(catalog, &join.relation, on)?;
                continue;
            }
            out.add(catalog, &join.relation)?;
            if let Some(on) = join_condition(&join.join_operator)? {
                // ON sees the relations joined so far, which are a prefix of the scope.
                let mut cx = ExprContext::plain(
                    &out.scope,
                    "aggregate functions are not allowed in JOIN conditions",
                );
                let predicates = cx.predicate(on, "ON clause")?;
                out.predicates.extend(predicates);
            }
        }
    }
    Ok(out)
}

/// The ON condition of a `LEFT [OUTER] JOIN`; `None` for any other join.
pub fn left_join_condition(op: &JoinOperator) -> Result<Option<&Expr>, String> {
    match op {
        JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => match c {
            JoinConstraint::On(e) => Ok(Some(e)),
            _ => Err(unsupported("LEFT JOIN without ON")),
        },
        _ => Ok(None),
    }
}

pub fn join_condition(op: &JoinOperator) -> Result<Option<&Expr>, String> {
    match op {
        JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => match c {
            JoinConstraint::On(e) => Ok(Some(e)),
            JoinConstraint::None => Ok(None),
            _ => Err(unsupported("USING and NATURAL joins")),
        },
        other => Err(unsupported(forms::join_operator(other))),
    }
}

impl From {
    pub fn add(&mut self, catalog: &dyn Resolver, factor: &TableFactor) -> Result<(), String> {
        // Taken apart to the last field: a clause a new sqlparser adds
        // fails to compile here until it is planned or refused.
        let TableFactor::Table {
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
        } = factor
        else {
            return Err(unsupported(forms::table_factor(factor)));
        };
        let clauses = [
            (!with_hints.is_empty(), "table hints"),
            (version.is_some(), "FOR SYSTEM_TIME"),
            (*with_ordinality, "WITH ORDINALITY"),
            (!partitions.is_empty(), "PARTITION"),
            (json_path.is_some(), "JSON path"),
            (sample.is_some(), "TABLESAMPLE"),
            (!index_directives.is_empty(), "index hints"),
            (inheritance.is_some(), "ONLY"),
        ];
        if let Some((_, clause)) = clauses.iter().find(|(present, _)| *present) {
            return Err(unsupported(clause));
        }
        let (relation_name, plan, columns) = match args {
            None => {
                let (name, id, columns) = relation(catalog, name)?;
                (name, RelationPlan::Get(id), columns)
            }
            Some(args) => table_function(name, args)?,
        };
        let table = match alias {
            None => relation_name,
            Some(alias) if alias.columns.is_empty() => ident(&alias.name),
            Some(alias) => return Err(unsupported(format!("column aliases: {alias}"))),
        };
        // PostgreSQL names a one-column function's column after its alias.
        let columns = match (args, alias) {
            (Some(_), Some(_)) => columns
                .into_iter()
                .map(|c| Column {
                    name: table.clone(),
                    ..c
                })
                .collect(),
            _ => columns,
        };
        if self.tables.contains(&table) {
            return Err(format!("table name \"{table}\" specified more than once"));
        }
        self.inputs.push((plan, columns.len()));
        self.scope
            .items
            .extend(Scope::relation(&table, columns).items);
        self.tables.push(table);
        Ok(())
    }

    /// `<everything so far> LEFT JOIN factor ON on`: the relations so far
    /// become the left input of one `LeftJoin`, whose right columns are
    /// nullable. `on` must be a conjunction of equalities between a left
    /// and a right column.
    fn left_join(
        &mut self,
        catalog: &dyn Resolver,
        factor: &TableFactor,
        on: &Expr,
    ) -> Result<(), String> {
        let left_arity = self.scope.items.len();
        self.add(catalog, factor)?;
        let mut cx = ExprContext::plain(
            &self.scope,
            "aggregate functions are not allowed in JOIN conditions",
        );
        let mut left_key = vec![];
        let mut right_key = vec![];
        for p in cx.predicate(on, "ON clause")? {
            let pair = match &p {
                ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                    (ScalarExpr::Column(a), ScalarExpr::Column(b)) => Some((*a.min(b), *a.max(b)))
                        .filter(|(a, b)| *a < left_arity && *b >= left_arity),
                    _ => None,
                },
                _ => None,
            };
            let (l, r) = pair.ok_or_else(|| {
                unsupported("LEFT JOIN ON other than equalities of a column of each side")
            })?;
            left_key.push(l);
            right_key.push(r - left_arity);
        }
        let (right, right_arity) = self.inputs.pop().expect("just added");
        let left = From {
            inputs: std::mem::take(&mut self.inputs),
            predicates: std::mem::take(&mut self.predicates),
            ..From::default()
        }
        .into_plan();
        // Each LEFT JOIN nests the joins before it one level deeper: a long
        // chain is refused here, before it is built deeper.
        if left.nesting() + 1 > RECURSION_LIMIT {
            return Err(recursion_limit_error());
        }
        let join = RelationPlan::LeftJoin {
            left: Box::new(left),
            right: Box::new(right),
            left_key,
            right_key,
            right_arity,
        };
        self.inputs.push((join, left_arity + right_arity));
        for item in &mut self.scope.items[left_arity..] {
            item.column.nullable = true;
        }
        Ok(())
    }

    /// The fast-path shape, if this is a single relation.
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
        let mut inputs: Vec<RelationPlan> = self.inputs.into_iter().map(|(p, _)| p).collect();
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
        filter(plan, filters)
    }
}

/// A table function in FROM: `generate_series(start, stop)` over constant
/// integer bounds, one column of their (widest) type.
pub fn table_function(
    name: &ObjectName,
    args: &TableFunctionArgs,
) -> Result<(String, RelationPlan, Vec<Column>), String> {
    let function = object_name(name)?;
    if function != "generate_series" {
        return Err(unsupported(format!("function {function}")));
    }
    let exprs = args
        .args
        .iter()
        .map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if args.settings.is_none() => Ok(e),
            _ => Err(unsupported(format!("function call form: {name}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let no_columns = Scope::default();
    let mut cx = ExprContext::plain(
        &no_columns,
        "aggregate functions are not allowed in functions in FROM",
    );
    let bounds = exprs
        .iter()
        .map(|e| cx.plan(e))
        .collect::<Result<Vec<_>, _>>()?;
    let [start, stop] = <[Typed; 2]>::try_from(bounds)
        .map_err(|_| unsupported("generate_series other than of a start and a stop"))?;
    if start.is_unknown() && stop.is_unknown() {
        // Neither says which of its overloads is meant (the real system's text).
        return Err("function generate_series(unknown, unknown) is not unique".into());
    }
    let typ = match (start.typ, stop.typ) {
        (Some(ScalarType::Int64), _) | (_, Some(ScalarType::Int64)) => ScalarType::Int64,
        _ => ScalarType::Int32,
    };
    let bound = |t: Typed| -> Result<Datum, String> {
        let t = t.expect_integer(|found| unsupported(format!("generate_series of {found}")))?;
        t.cast(typ).expr.eval(&[]).map_err(|e| e.0)
    };
    let (start, stop) = (bound(start)?, bound(stop)?);
    let column = Column {
        name: function.clone(),
        typ,
        nullable: false,
    };
    Ok((
        function,
        RelationPlan::GenerateSeries { start, stop },
        vec![column],
    ))
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
