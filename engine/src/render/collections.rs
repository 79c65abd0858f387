//! Small operators on a dataflow's rows and errors that several renderers
//! use: literal updates (`constant`), a `Map`, a `FlatMap`, a `Filter` and
//! a `Project` at any time (the outer scope's or a recursive loop's), and
//! fallible results parted into rows and errors by one operator (`split`).

use differential_dataflow::input::Input;
use differential_dataflow::AsCollection;
use differential_dataflow::VecCollection;
use timely::dataflow::operators::core::OkErr;
use timely::dataflow::Scope;

use super::join::{Errs, Oks, Time};
use crate::eval::passes;
use crate::plan::{ScalarExpr, TableFunc};
use crate::repr::{DataflowError, Diff, Row, Timestamp};

/// Literal updates at `as_of`, introduced by this worker.
pub fn constant<'s, D: differential_dataflow::ExchangeData>(
    scope: Scope<'s, Timestamp>,
    data: Vec<D>,
    as_of: Timestamp,
) -> VecCollection<'s, Timestamp, D, Diff> {
    let (_input, collection) =
        scope.new_collection_from_raw(data.into_iter().map(move |d| (d, as_of, 1)));
    collection
}

/// The rows each extended by one column per expression (a `Map`), a row
/// whose expression fails going to the errors.
pub fn map<'s, T: Time>(
    (oks, errs): (Oks<'s, T>, Errs<'s, T>),
    exprs: &[ScalarExpr],
) -> (Oks<'s, T>, Errs<'s, T>) {
    let exprs = exprs.to_vec();
    let results = oks.map(move |mut row| {
        for expr in &exprs {
            let datum = expr.eval(&row)?;
            row.push(datum);
        }
        Ok(row)
    });
    split(results, errs)
}

/// Each row followed by each row of `func` of the values of `exprs` over
/// it (a `FlatMap`), a row whose expressions or function fail going to
/// the errors, once.
pub fn flat_map<'s, T: Time>(
    (oks, errs): (Oks<'s, T>, Errs<'s, T>),
    func: &TableFunc,
    exprs: &[ScalarExpr],
) -> (Oks<'s, T>, Errs<'s, T>) {
    let (func, exprs) = (func.clone(), exprs.to_vec());
    let results = oks.flat_map(move |row| {
        let values = exprs.iter().map(|e| e.eval(&row));
        let rows = values
            .collect::<Result<Vec<_>, _>>()
            .and_then(|values| func.rows(&values));
        let rows: Box<dyn Iterator<Item = Result<Row, DataflowError>>> = match rows {
            Ok(rows) => Box::new(rows.map(move |r| {
                let mut out = row.clone();
                out.extend(r);
                Ok(out)
            })),
            Err(e) => Box::new(std::iter::once(Err(e))),
        };
        rows
    });
    split(results, errs)
}

/// The rows every predicate holds for (a `Filter`), a row whose
/// predicate fails going to the errors.
pub fn filter<'s, T: Time>(
    (oks, errs): (Oks<'s, T>, Errs<'s, T>),
    predicates: &[ScalarExpr],
) -> (Oks<'s, T>, Errs<'s, T>) {
    let predicates = predicates.to_vec();
    let results = oks.flat_map(move |row| match passes(&predicates, &row) {
        Ok(true) => Some(Ok(row)),
        Ok(false) => None,
        Err(e) => Some(Err(e)),
    });
    split(results, errs)
}

/// The listed columns of each row (a `Project`).
pub fn project<'s, T: Time>(oks: Oks<'s, T>, columns: &[usize]) -> Oks<'s, T> {
    let columns = columns.to_vec();
    oks.map(move |row| columns.iter().map(|c| row[*c].clone()).collect())
}

/// Splits fallible results into rows and errors, adding `errs` to the errors.
pub fn split<'s, T: Time>(
    results: VecCollection<'s, T, Result<Row, DataflowError>, Diff>,
    errs: Errs<'s, T>,
) -> (Oks<'s, T>, Errs<'s, T>) {
    let (oks, new_errs) = ok_err(results);
    (oks, errs.concat(new_errs))
}

/// Fallible results as rows and errors, each moved to its side by one
/// operator: two readers of one collection would each get a copy of every
/// row.
fn ok_err<'s, T: Time>(
    results: VecCollection<'s, T, Result<Row, DataflowError>, Diff>,
) -> (Oks<'s, T>, Errs<'s, T>) {
    let (oks, errs) = results.inner.ok_err(|(result, time, diff)| match result {
        Ok(row) => Ok((row, time, diff)),
        Err(e) => Err((e, time, diff)),
    });
    (oks.as_collection(), errs.as_collection())
}
