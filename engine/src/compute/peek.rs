//! Peeks, worker side: reading an index's traces at one time, with the real
//! system's order of checks. A peek waits until both the oks and the errs
//! uppers are strictly beyond its time; then it fails if the since is beyond
//! its time; then it returns the smallest positive error, or else the rows.

use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::{Cursor, TraceReader};
use timely::progress::Antichain;

use crate::arrangement::{row_of, upper_of, Chain, IndexTraces};
use crate::eval::passes;
use crate::packed::PackedRow;
use crate::protocol::{Frontiers, PeekRequest, PeekResponse};
use crate::repr::{Row, Timestamp};
use crate::sharing::import::SharedIndex;
use crate::typedefs::{ErrsBatch, OksBatch};

/// An index as a worker reads it: traces it maintains, or a point the
/// other runtime publishes. Both hand out the same `Arc` batches.
pub enum IndexHandle {
    Local(Box<IndexTraces>),
    Shared(SharedIndex),
}

impl IndexHandle {
    fn chains(&mut self) -> (Chain<OksBatch>, Chain<ErrsBatch>) {
        match self {
            IndexHandle::Local(traces) => traces.chains(),
            IndexHandle::Shared(shared) => {
                let snapshot = shared.snapshot();
                (snapshot.oks, snapshot.errs)
            }
        }
    }
}

/// A peek a worker holds until it can answer.
pub struct Pending {
    pub request: PeekRequest,
    /// The peek's own handle, holding compaction at its time while it waits.
    pub handle: IndexHandle,
}

impl Pending {
    pub fn new(request: PeekRequest, mut handle: IndexHandle) -> Self {
        // Hold at the peek's time where the handle still can; a since already
        // beyond it stays and is reported once the uppers allow an answer.
        // (A shared handle placed its hold when it was made.)
        if let IndexHandle::Local(traces) = &mut handle {
            let time = Antichain::from_elem(request.time);
            traces.oks.set_logical_compaction(time.borrow());
            traces.errs.set_logical_compaction(time.borrow());
        }
        Pending { request, handle }
    }

    pub fn frontiers(&mut self) -> Frontiers {
        match &mut self.handle {
            IndexHandle::Local(traces) => Frontiers {
                since: traces.since(),
                oks_upper: upper_of(&mut traces.oks),
                errs_upper: upper_of(&mut traces.errs),
            },
            IndexHandle::Shared(shared) => {
                let (oks_upper, errs_upper) = shared.uppers();
                Frontiers {
                    since: Some(shared.since()),
                    oks_upper,
                    errs_upper,
                }
            }
        }
    }

    /// The answer, once both uppers are beyond the peek's time.
    pub fn try_answer(&mut self) -> Option<PeekResponse> {
        let time = self.request.time;
        let frontiers = self.frontiers();
        let beyond = |upper: Option<Timestamp>| upper.is_none_or(|u| u > time);
        if !beyond(frontiers.oks_upper) || !beyond(frontiers.errs_upper) {
            return None;
        }
        if let Some(since) = frontiers.since.filter(|s| *s > time) {
            return Some(PeekResponse::Error(compaction_error(since, time)));
        }
        Some(self.read())
    }

    fn read(&mut self) -> PeekResponse {
        let time = self.request.time;
        let (oks, errs) = self.handle.chains();
        let (mut cursor, storage) = cursor_list(errs.batches);
        while cursor.key_valid(&storage) {
            let mut count = 0;
            cursor.map_times(&storage, |t, r| {
                if *t <= time {
                    count += *r
                }
            });
            if count > 0 {
                // Keys are sorted, so this is the smallest error.
                return PeekResponse::Error(cursor.key(&storage).0.clone());
            }
            cursor.step_key(&storage);
        }
        let mut rows = Vec::new();
        let (mut cursor, storage) = cursor_list(oks.batches);
        let key = self.request.key.as_deref().map(PackedRow::pack);
        if let Some(key) = &key {
            cursor.seek_key(&storage, key.as_ref());
        }
        while cursor.key_valid(&storage) {
            if let Some(key) = &key {
                if cursor.key(&storage) != key.as_ref() {
                    break;
                }
            }
            while cursor.val_valid(&storage) {
                let mut count = 0;
                cursor.map_times(&storage, |t, r| {
                    if *t <= time {
                        count += *r
                    }
                });
                if count != 0 {
                    let row = row_of(cursor.key(&storage), cursor.val(&storage));
                    // Unpacked only for a WHERE to look at.
                    let predicates = &self.request.predicates;
                    let passed = match predicates.is_empty() {
                        true => Ok(true),
                        false => passes(predicates, &row.unpack()),
                    };
                    match passed {
                        Ok(true) => rows.push((row.to_owned(), count)),
                        Ok(false) => {}
                        Err(e) => return PeekResponse::Error(e.0),
                    }
                }
                cursor.step_val(&storage);
            }
            cursor.step_key(&storage);
        }
        PeekResponse::Rows(rows)
    }
}

/// The real system's text for a read below the since.
pub fn compaction_error(since: Timestamp, time: Timestamp) -> String {
    format!("Arrangement compaction frontier ([{since}]) is beyond the time of the attempted read ({time})")
}

/// Combines every worker's answer: the smallest error wins, else all rows.
pub fn combine(responses: Vec<PeekResponse>) -> Result<Vec<Row>, String> {
    let len = responses.iter().map(|r| match r {
        PeekResponse::Rows(rows) => rows.len(),
        PeekResponse::Error(_) => 0,
    });
    let mut rows = Vec::with_capacity(len.sum());
    let mut errors = Vec::new();
    for response in responses {
        match response {
            PeekResponse::Rows(r) => rows.extend(r),
            PeekResponse::Error(e) => errors.push(e),
        }
    }
    if let Some(error) = errors.into_iter().min() {
        return Err(error);
    }
    rows.sort();
    // Sized once: a whole-index read gives a million rows.
    let mut out = Vec::with_capacity(rows.iter().map(|(_, c)| (*c).max(0) as usize).sum());
    for (row, count) in rows {
        let row = row.unpack();
        if count < 0 {
            return Err(format!(
                "Invalid data in source, saw retractions ({}) for row that does not exist: {:?}",
                -count, row
            ));
        }
        for _ in 1..count {
            out.push(row.clone());
        }
        if count > 0 {
            out.push(row);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum::{Int32, Text};
    use crate::repr::Diff;

    fn rows(rows: &[(Row, Diff)]) -> PeekResponse {
        PeekResponse::Rows(rows.iter().map(|(r, d)| (PackedRow::pack(r), *d)).collect())
    }

    /// The workers' rows in row order, each as many times as its count (a
    /// zero count gives none); the smallest error wins over any row; a
    /// negative count is the real system's retraction error.
    #[test]
    fn combine_orders_repeats_and_refuses_what_it_must() {
        let (a, b, c) = (vec![Int32(1)], vec![Int32(2)], vec![Text("c".into())]);
        let answers = vec![
            rows(&[(b.clone(), 1), (c.clone(), 0)]),
            rows(&[(a.clone(), 2)]),
        ];
        assert_eq!(combine(answers), Ok(vec![a.clone(), a.clone(), b.clone()]));
        let answers = vec![
            rows(&[(a.clone(), 1)]),
            PeekResponse::Error("z".into()),
            PeekResponse::Error("y".into()),
        ];
        assert_eq!(combine(answers), Err("y".into()));
        let refused = combine(vec![rows(&[(a, 1), (b, -2)])]);
        assert_eq!(
            refused,
            Err("Invalid data in source, saw retractions (2) for row that does not exist: [Int32(2)]".into())
        );
    }
}
