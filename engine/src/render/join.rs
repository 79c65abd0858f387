//! Joins rendered as chains of binary joins (`JoinPlan::Linear`, and any
//! join a delta join cannot take) and left joins, with the keying and the
//! equivalence check the delta join shares.

use differential_dataflow::VecCollection;

use crate::repr::{Datum, Diff, Row, Timestamp};
use crate::typedefs::{Errs, Oks};

/// A chain of binary joins over inputs already rendered (each with its
/// arity), each step arranging its two sides by the columns of the
/// equivalence classes split across them; each input's errors once.
pub fn linear<'s>(
    rendered: Vec<((Oks<'s>, Errs<'s>), usize)>,
    equivalences: &[Vec<usize>],
) -> (Oks<'s>, Errs<'s>) {
    let mut errs: Option<Errs<'s>> = None;
    let mut joined: Option<(Oks<'s>, usize)> = None;
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

/// The pairs of an equi-join, plus each left row without a partner padded
/// with `right_arity` NULLs: the matched keys are arranged and the left
/// rows whose key is among them taken away (an antijoin).
pub fn left<'s>(
    left: Oks<'s>,
    right: Oks<'s>,
    left_key: &[usize],
    right_key: &[usize],
    right_arity: usize,
) -> Oks<'s> {
    let keyed_left = keyed(left.clone(), left_key.to_vec());
    let keyed_right = keyed(right, right_key.to_vec());
    let matched = keyed_left
        .clone()
        .join(keyed_right.clone())
        .map(|(_key, (mut l, r))| {
            l.extend(r);
            l
        });
    let right_keys = keyed_right.map(|(k, _)| k).distinct_core::<Diff>();
    let unmatched = keyed_left.antijoin(right_keys).map(|(_key, row)| row);
    // A NULL in the key never matches: such a left row is always padded.
    let key = left_key.to_vec();
    let null_keyed = left.filter(move |row| key.iter().any(|c| row[*c] == Datum::Null));
    let padded = unmatched.concat(null_keyed).map(move |mut row| {
        row.extend(std::iter::repeat_n(Datum::Null, right_arity));
        row
    });
    matched.concat(padded)
}

/// Keeps the joined rows whose every equivalence class holds one non-NULL
/// value: classes with several columns on one side are enforced only here.
pub fn enforce_equivalences<'s>(rows: Oks<'s>, equivalences: Vec<Vec<usize>>) -> Oks<'s> {
    rows.filter(move |row| {
        equivalences.iter().all(|class| {
            let first = &row[class[0]];
            *first != Datum::Null && class.iter().all(|c| row[*c] == *first)
        })
    })
}

/// Keys rows by the given columns, dropping rows with a NULL key (NULL never joins).
pub fn keyed<'s>(rows: Oks<'s>, key: Vec<usize>) -> VecCollection<'s, Timestamp, (Row, Row), Diff> {
    rows.flat_map(move |row| {
        let k: Row = key.iter().map(|c| row[*c].clone()).collect();
        if k.contains(&Datum::Null) {
            None
        } else {
            Some((k, row))
        }
    })
}
