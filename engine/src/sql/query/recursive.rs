//! `WITH MUTUALLY RECURSIVE name (col type, ...) AS (query), ... body`,
//! planned as Materialize's `plan_ctes` plans it: every binding's name and
//! declared columns (all nullable) are in scope first, for every binding
//! and the body, shadowing a table or an outer CTE of that name; then each
//! binding is planned and its columns' types held to its declaration.
//!
//! A binding whose types differ from its declaration where Materialize
//! has no assignment cast between them fails with Materialize's text;
//! where it has one, Materialize would cast, and the engine refuses. What
//! the recursive loop cannot render over a binding is refused by name
//! (`RelationPlan::loop_refusal`).

use std::collections::BTreeSet;

use sqlparser::ast::Query;

use super::super::expr::{scalar_type, Nested, Outer};
use super::super::ident;
use super::with::{named_ctes, plain_form, Cte};
use super::{PlannedQuery, Planner};
use crate::plan::{with_top_k, DerivedSite, RelationPlan};
use crate::repr::{unsupported, Column, ScalarType};

impl Planner<'_> {
    /// Plans `q`, whose WITH clause is Materialize's `MUTUALLY RECURSIVE`.
    pub(super) fn mutually_recursive(
        &self,
        q: &Query,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        let ctes = named_ctes(q)?;
        let mut ids = Vec::new();
        for cte in ctes {
            plain_form(cte)?;
            let columns = cte
                .alias
                .columns
                .iter()
                .map(|c| {
                    let typ = c.data_type.as_ref().ok_or_else(|| {
                        unsupported("syntax WITH: a WITH MUTUALLY RECURSIVE column without a type")
                    })?;
                    Ok(Column {
                        name: ident(&c.name),
                        typ: scalar_type(typ)?,
                        nullable: true,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let id = self.fresh();
            let name = ident(&cte.alias.name);
            self.ctes
                .borrow_mut()
                .push(Cte::new(name.clone(), id, columns.clone()));
            ids.push((id, name, columns));
        }
        let mut values = Vec::new();
        for (cte, (_, name, declared)) in ctes.iter().zip(&ids) {
            // Not every column of a binding need be read: its computed
            // ones are marked as a subquery's in FROM are, in its own name.
            let planned = self.within(DerivedSite::Binding, || {
                self.query(&cte.query, None, names, true)
            })?;
            let found: Vec<ScalarType> = planned.columns.iter().map(|c| c.typ).collect();
            check_types(name, declared, &found)?;
            values.push(with_top_k(planned.plan, planned.finishing));
        }
        let ids: Vec<usize> = ids.into_iter().map(|(id, _, _)| id).collect();
        let body = Query {
            with: None,
            ..q.clone()
        };
        let mut planned = self.query(&body, None, names, in_from)?;
        let (ids, values) = read(ids, values, &planned.plan);
        if ids.is_empty() {
            return Ok(planned);
        }
        let looped: BTreeSet<usize> = ids.iter().copied().collect();
        if let Some(refusal) = values.iter().find_map(|v| v.loop_refusal(&looped)) {
            return Err(refusal);
        }
        planned.plan = RelationPlan::LetRec {
            ids,
            values,
            body: Box::new(planned.plan),
        };
        planned.simple = None;
        Ok(planned)
    }
}

/// The bindings `body` reads, directly or through the bindings it reads,
/// in their order: Materialize's optimizer drops the others (their
/// planning errors stand, their evaluation errors never arise).
fn read(
    ids: Vec<usize>,
    values: Vec<RelationPlan>,
    body: &RelationPlan,
) -> (Vec<usize>, Vec<RelationPlan>) {
    let mut reached: BTreeSet<usize> = ids
        .iter()
        .copied()
        .filter(|id| body.reads_local(*id))
        .collect();
    loop {
        let more: Vec<usize> = ids
            .iter()
            .zip(&values)
            .filter(|(id, _)| reached.contains(id))
            .flat_map(|(_, v)| ids.iter().copied().filter(|other| v.reads_local(*other)))
            .filter(|other| !reached.contains(other))
            .collect();
        if more.is_empty() {
            break;
        }
        reached.extend(more);
    }
    ids.into_iter()
        .zip(values)
        .filter(|(id, _)| reached.contains(id))
        .unzip()
}

/// Holds a binding's types to its declaration, as Materialize does: equal,
/// or cast by an assignment cast (refused here), or Materialize's error.
fn check_types(name: &str, declared: &[Column], found: &[ScalarType]) -> Result<(), String> {
    let mismatch = || {
        let names = |types: &mut dyn Iterator<Item = ScalarType>| {
            types
                .map(|t| t.name().into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "WITH MUTUALLY RECURSIVE query \"{name}\" declared types ({}), but query returns types ({})",
            names(&mut declared.iter().map(|c| c.typ)),
            names(&mut found.iter().copied())
        )
    };
    let plain = |t: ScalarType| {
        !matches!(
            t,
            ScalarType::Char(_) | ScalarType::VarChar(_) | ScalarType::NumericScale(_)
        )
    };
    let all_plain = declared.iter().all(|c| plain(c.typ)) && found.iter().copied().all(plain);
    if declared.len() != found.len() {
        return match all_plain {
            true => Err(mismatch()),
            false => Err(unsupported(
                "WITH MUTUALLY RECURSIVE types with a length or scale",
            )),
        };
    }
    let pairs = || declared.iter().map(|c| c.typ).zip(found.iter().copied());
    if pairs().all(|(d, f)| d == f) {
        return Ok(());
    }
    if all_plain && pairs().any(|(d, f)| no_assignment_cast(f, d)) {
        return Err(mismatch());
    }
    Err(unsupported(
        "a WITH MUTUALLY RECURSIVE binding whose types need an assignment cast",
    ))
}

/// Whether Materialize has no cast from `from` to `to` that an assignment
/// may use: a boolean to a number or a time, a number to a boolean or a
/// time, a time to a number or a boolean. (Anything to text has one; text
/// to anything but text has only an explicit one, but a NULL's unknown
/// type plans as text here, so text is left to the refusal.)
fn no_assignment_cast(from: ScalarType, to: ScalarType) -> bool {
    let number = |t: ScalarType| {
        t.is_integer() || t.is_unsigned() || t.is_float() || t == ScalarType::Numeric
    };
    let time = |t: ScalarType| {
        matches!(
            t,
            ScalarType::Date | ScalarType::Timestamp | ScalarType::TimestampTz
        )
    };
    let boolean = |t: ScalarType| t == ScalarType::Bool;
    match () {
        _ if boolean(from) => number(to) || time(to),
        _ if number(from) => boolean(to) || time(to),
        _ if time(from) => number(to) || boolean(to),
        _ => false,
    }
}
