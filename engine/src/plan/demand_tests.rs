//! Tests of the demand pass (`demand.rs`) over the relations a query
//! derives: which computed columns of a subquery in FROM, a CTE or a
//! `WITH MUTUALLY RECURSIVE` binding are left uncomputed, which are
//! computed, and which are refused by name because the engine cannot tell
//! that Materialize computes them on the same rows.

use std::collections::BTreeSet;

use super::*;
use crate::repr::unsupported;

/// `t (a, b)`, a table of two columns.
const T: GlobalId = GlobalId(1);

fn arities(_: GlobalId) -> usize {
    2
}

/// `a / b`: fails where `b` is 0.
fn quotient() -> ScalarExpr {
    ScalarExpr::Binary(
        BinaryOp::Div,
        Box::new(ScalarExpr::Column(0)),
        Box::new(ScalarExpr::Column(1)),
    )
}

/// `SELECT a, a / b AS q FROM t`, a subquery in FROM written at `site`.
fn derived(site: DerivedSite) -> RelationPlan {
    RelationPlan::Derived {
        input: Box::new(RelationPlan::Project {
            input: Box::new(RelationPlan::Map {
                input: Box::new(RelationPlan::Get(T)),
                exprs: vec![quotient()],
            }),
            columns: vec![0, 2],
        }),
        computed: vec![1],
        site,
    }
}

fn project(input: RelationPlan, columns: Vec<usize>) -> RelationPlan {
    RelationPlan::Project {
        input: Box::new(input),
        columns,
    }
}

fn filter(input: RelationPlan) -> RelationPlan {
    let a_positive = ScalarExpr::Binary(
        BinaryOp::Gt,
        Box::new(ScalarExpr::Column(0)),
        Box::new(ScalarExpr::Literal(Datum::Int32(0))),
    );
    RelationPlan::Filter {
        input: Box::new(input),
        predicates: vec![a_positive],
    }
}

/// The plan demanded of all its columns.
fn lowered(plan: RelationPlan) -> Result<RelationPlan, String> {
    let every: BTreeSet<usize> = (0..plan.arity(&arities)).collect();
    plan.demanded(&every, &arities)
}

/// Whether the plan still computes `a / b` anywhere.
fn computes_quotient(plan: &RelationPlan) -> bool {
    let mut stack = vec![plan];
    while let Some(p) = stack.pop() {
        if let RelationPlan::Map { exprs, .. } = p {
            if exprs.contains(&quotient()) {
                return true;
            }
        }
        stack.extend(p.inputs());
    }
    false
}

#[test]
fn an_unread_computed_column_is_not_computed() {
    // SELECT a FROM (SELECT a, a / b AS q FROM t)
    let plan = lowered(project(derived(DerivedSite::Subquery), vec![0])).unwrap();
    assert!(!computes_quotient(&plan));
    // ... WHERE a > 0: the filter reads `a` alone.
    let plan = project(filter(derived(DerivedSite::Subquery)), vec![0]);
    assert!(!computes_quotient(&lowered(plan).unwrap()));
}

#[test]
fn a_read_computed_column_is_computed_where_nothing_filters_before_it() {
    // SELECT q FROM (SELECT a, a / b AS q FROM t)
    let plan = lowered(project(derived(DerivedSite::Subquery), vec![1])).unwrap();
    assert!(computes_quotient(&plan));
    // A count of rows reads no column.
    let count = RelationPlan::Reduce {
        input: Box::new(derived(DerivedSite::Subquery)),
        group_key: vec![],
        aggregates: vec![Aggregate::new(
            AggregateFunc::CountAll,
            ScalarExpr::Literal(Datum::Null),
            false,
        )],
        global: true,
    };
    assert!(!computes_quotient(&lowered(count).unwrap()));
}

#[test]
fn a_read_computed_column_under_a_filter_is_refused() {
    // SELECT q FROM (SELECT a, a / b AS q FROM t) WHERE a > 0: Materialize
    // filters before it computes `q`; the engine would not.
    let plan = project(filter(derived(DerivedSite::Subquery)), vec![1]);
    assert_eq!(
        lowered(plan),
        Err(unsupported("a computed column in a subquery in FROM"))
    );
}

#[test]
fn a_cte_is_read_for_what_its_readers_read() {
    let local = || RelationPlan::Local { id: 7, arity: 2 };
    let with = |body| RelationPlan::Let {
        id: 7,
        value: Box::new(derived(DerivedSite::Cte)),
        body: Box::new(body),
    };
    // Read twice, for `a` alone: not computed.
    let twice = RelationPlan::Union {
        inputs: vec![project(local(), vec![0]), project(local(), vec![0])],
    };
    assert!(!computes_quotient(&lowered(with(twice)).unwrap()));
    // Read once for `q`: computed.
    let once = RelationPlan::Union {
        inputs: vec![project(local(), vec![0]), project(local(), vec![1])],
    };
    assert!(computes_quotient(&lowered(with(once)).unwrap()));
    // Read for `q` under a filter: refused in the CTE's name.
    let filtered = project(filter(local()), vec![1]);
    assert_eq!(
        lowered(with(filtered)),
        Err(unsupported("a computed column in a CTE"))
    );
}

#[test]
fn a_recursive_binding_is_read_whole_and_another_is_refused() {
    // r reads itself: every column of it is read, as in Materialize.
    let recursive = RelationPlan::LetRec {
        ids: vec![3],
        values: vec![RelationPlan::Union {
            inputs: vec![
                derived(DerivedSite::Binding),
                RelationPlan::Local { id: 3, arity: 2 },
            ],
        }],
        body: Box::new(project(RelationPlan::Local { id: 3, arity: 2 }, vec![0])),
    };
    assert!(computes_quotient(&lowered(recursive).unwrap()));
    // r reads no binding: Materialize reads what its readers read, which
    // the engine does not follow.
    let plain = RelationPlan::LetRec {
        ids: vec![3],
        values: vec![derived(DerivedSite::Binding)],
        body: Box::new(project(RelationPlan::Local { id: 3, arity: 2 }, vec![0])),
    };
    assert_eq!(
        lowered(plain),
        Err(unsupported(
            "a computed column in a WITH MUTUALLY RECURSIVE binding"
        ))
    );
}

#[test]
fn a_read_computed_column_through_an_outer_join_is_refused() {
    // SELECT s.q FROM t LEFT JOIN (SELECT a, a / b AS q FROM t) AS s ON ...
    let join = |site| RelationPlan::EquiJoin {
        left: Box::new(RelationPlan::Get(T)),
        right: Box::new(derived(site)),
        left_key: vec![0],
        right_key: vec![0],
        arities: (2, 2),
        kind: JoinKind::Left,
        nulls_match: false,
    };
    assert_eq!(
        lowered(project(join(DerivedSite::Subquery), vec![3])),
        Err(unsupported("a computed column in a subquery in FROM"))
    );
    // The engine reads every column of an outer join's sides, so a column
    // nothing reads is refused there too, where Materialize drops it.
    assert_eq!(
        lowered(project(join(DerivedSite::Cte), vec![0])),
        Err(unsupported("a computed column in a CTE"))
    );
}
