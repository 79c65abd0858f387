//! Joins rendered as chains of binary joins (`JoinPlan::Linear`, and any
//! join a delta join cannot take) and two-input equi-joins that keep a
//! side's unpaired rows (LEFT, RIGHT, FULL) or match NULL keys (a
//! subquery's results joining back), with the keying and the equivalence
//! check the delta join shares.

use differential_dataflow::lattice::Lattice;
use differential_dataflow::VecCollection;

use crate::plan::{JoinKind, RelationPlan};
use crate::repr::{DataflowError, Datum, Diff, Row};

/// Rows and errors at a dataflow's time `T`: the outer scope's, or a
/// `WITH MUTUALLY RECURSIVE` loop's (`recursive`), so both join alike.
pub type Oks<'s, T> = VecCollection<'s, T, Row, Diff>;
pub type Errs<'s, T> = VecCollection<'s, T, DataflowError, Diff>;
/// An input of a join: its rows and errors, and its arity.
pub type JoinInput<'s, T> = ((Oks<'s, T>, Errs<'s, T>), usize);

/// What a time must be to join at.
pub trait Time: timely::progress::Timestamp + Lattice {}
impl<T: timely::progress::Timestamp + Lattice> Time for T {}

/// A chain of binary joins over inputs already rendered (each with its
/// arity), each step arranging its two sides by the columns of the
/// equivalence classes split across them; each input's errors once.
pub fn linear<'s, T: Time>(
    rendered: Vec<JoinInput<'s, T>>,
    equivalences: &[Vec<usize>],
) -> (Oks<'s, T>, Errs<'s, T>) {
    let mut errs: Option<Errs<'s, T>> = None;
    let mut joined: Option<(Oks<'s, T>, usize)> = None;
    for ((oks, input_errs), input_arity) in rendered {
        // Each input's errors, once.
        errs = Some(match errs {
            None => input_errs,
            Some(e) => e.concat(input_errs),
        });
        joined = Some(match joined {
            None => (oks, input_arity),
            Some((prefix, prefix_arity)) => {
                // Columns of each class split across the prefix and this input form the key.
                let mut left_key = Vec::new();
                let mut right_key = Vec::new();
                for class in equivalences {
                    let left = class.iter().find(|c| **c < prefix_arity);
                    let right = class
                        .iter()
                        .find(|c| **c >= prefix_arity && **c < prefix_arity + input_arity);
                    if let (Some(l), Some(r)) = (left, right) {
                        left_key.push(*l);
                        right_key.push(*r - prefix_arity);
                    }
                }
                let left = keyed(prefix, left_key);
                let right = keyed(oks, right_key);
                let rows = left.join(right).map(|(_key, (mut l, r))| {
                    l.extend(r);
                    l
                });
                (rows, prefix_arity + input_arity)
            }
        });
    }
    let (rows, _) = joined.expect("a join has inputs");
    let rows = enforce_equivalences(rows, equivalences.to_vec());
    (rows, errs.expect("a join has inputs"))
}

/// An `EquiJoin` of two rendered inputs, each with its key: the pairs
/// whose keys are equal, plus each unpaired row of a side `kind` keeps,
/// padded with NULLs for the other side's columns (`arities`).
pub fn equi<'s, T: Time>(
    [(left, left_key), (right, right_key)]: [(Oks<'s, T>, Vec<usize>); 2],
    (left_arity, right_arity): (usize, usize),
    kind: JoinKind,
    nulls_match: bool,
) -> Oks<'s, T> {
    let key = move |rows: Oks<'s, T>, key: Vec<usize>| match nulls_match {
        true => keyed_with_nulls(rows, key),
        false => keyed(rows, key),
    };
    let keyed_left = key(left.clone(), left_key.clone());
    let keyed_right = key(right.clone(), right_key.clone());
    let mut joined = keyed_left
        .clone()
        .join(keyed_right.clone())
        .map(|(_key, (mut l, r))| {
            l.extend(r);
            l
        });
    if kind.keeps(false) {
        let unpaired = unpaired((left, &left_key), &keyed_left, &keyed_right, nulls_match);
        joined = joined.concat(unpaired.map(move |mut row| {
            row.extend(std::iter::repeat_n(Datum::Null, right_arity));
            row
        }));
    }
    if kind.keeps(true) {
        let unpaired = unpaired((right, &right_key), &keyed_right, &keyed_left, nulls_match);
        joined = joined.concat(unpaired.map(move |row| {
            let mut padded = vec![Datum::Null; left_arity];
            padded.extend(row);
            padded
        }));
    }
    joined
}

/// The `EquiJoin` node `plan` of its two sides, rendered: the joined rows,
/// and each side's errors once.
pub fn equi_node<'s, T: Time>(
    [(left, left_errs), (right, right_errs)]: [(Oks<'s, T>, Errs<'s, T>); 2],
    plan: &RelationPlan,
) -> (Oks<'s, T>, Errs<'s, T>) {
    let RelationPlan::EquiJoin {
        left_key,
        right_key,
        arities,
        kind,
        nulls_match,
        ..
    } = plan
    else {
        unreachable!("an EquiJoin: {plan:?}");
    };
    let sides = [(left, left_key.clone()), (right, right_key.clone())];
    let oks = equi(sides, *arities, *kind, *nulls_match);
    (oks, left_errs.concat(right_errs))
}

/// The rows of one side that pair with none of the other's: those whose
/// key is not among the other side's keys (an antijoin on its distinct
/// keys) and, under SQL's `=`, those with a NULL in the key.
fn unpaired<'s, T: Time>(
    (rows, key): (Oks<'s, T>, &[usize]),
    keyed_rows: &KeyedRows<'s, T>,
    keyed_other: &KeyedRows<'s, T>,
    nulls_match: bool,
) -> Oks<'s, T> {
    let other_keys = keyed_other.clone().map(|(k, _)| k).distinct_core::<Diff>();
    let unmatched = keyed_rows
        .clone()
        .antijoin(other_keys)
        .map(|(_key, row)| row);
    if nulls_match {
        return unmatched;
    }
    let key = key.to_vec();
    unmatched.concat(rows.filter(move |row| key.iter().any(|c| row[*c] == Datum::Null)))
}

/// Keeps the joined rows whose every equivalence class holds one non-NULL
/// value: classes with several columns on one side are enforced only here.
pub fn enforce_equivalences<'s, T: Time>(
    rows: Oks<'s, T>,
    equivalences: Vec<Vec<usize>>,
) -> Oks<'s, T> {
    rows.filter(move |row| {
        equivalences.iter().all(|class| {
            let first = &row[class[0]];
            *first != Datum::Null && class.iter().all(|c| row[*c] == *first)
        })
    })
}

/// Rows keyed by some of their columns.
type KeyedRows<'s, T> = VecCollection<'s, T, (Row, Row), Diff>;

/// Keys rows by the given columns, NULLs and all (NULL matches NULL).
fn keyed_with_nulls<'s, T: Time>(rows: Oks<'s, T>, key: Vec<usize>) -> KeyedRows<'s, T> {
    rows.map(move |row| (key.iter().map(|c| row[*c].clone()).collect(), row))
}

/// Keys rows by the given columns, dropping rows with a NULL key (NULL never joins).
pub fn keyed<'s, T: Time>(rows: Oks<'s, T>, key: Vec<usize>) -> KeyedRows<'s, T> {
    rows.flat_map(move |row| {
        let k: Row = key.iter().map(|c| row[*c].clone()).collect();
        if k.contains(&Datum::Null) {
            None
        } else {
            Some((k, row))
        }
    })
}
