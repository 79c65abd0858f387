//! Small operators on a dataflow's rows and errors that several renderers
//! use: literal updates (`constant`), and fallible results parted into
//! rows and errors by one operator (`split`).

use differential_dataflow::input::Input;
use differential_dataflow::AsCollection;
use differential_dataflow::VecCollection;
use timely::dataflow::operators::core::OkErr;
use timely::dataflow::Scope;

use crate::repr::{DataflowError, Diff, Row, Timestamp};
use crate::typedefs::{Errs, Oks};

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

/// Splits fallible results into rows and errors, adding `errs` to the errors.
pub fn split<'s>(
    results: VecCollection<'s, Timestamp, Result<Row, DataflowError>, Diff>,
    errs: Errs<'s>,
) -> (Oks<'s>, Errs<'s>) {
    let (oks, new_errs) = ok_err(results);
    (oks, errs.concat(new_errs))
}

/// Fallible results as rows and errors, each moved to its side by one
/// operator: two readers of one collection would each get a copy of every
/// row.
fn ok_err<'s>(
    results: VecCollection<'s, Timestamp, Result<Row, DataflowError>, Diff>,
) -> (Oks<'s>, Errs<'s>) {
    let (oks, errs) = results.inner.ok_err(|(result, time, diff)| match result {
        Ok(row) => Ok((row, time, diff)),
        Err(e) => Err((e, time, diff)),
    });
    (oks.as_collection(), errs.as_collection())
}
