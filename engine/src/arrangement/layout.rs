//! How rows are laid out in an oks arrangement, and how they get there:
//! keys and rows packed (`typedefs::OksLayout`), rows arranged by
//! themselves kept once, as the key (`row_of`), and the merge batcher that
//! sorts them in (`chunker`'s runs, `merger`'s merges) with the sealer that
//! builds its batches.

use differential_dataflow::batcher::merge::{MergeBatcher, Sealer};
use differential_dataflow::trace::implementations::ord_neu::val_batch::OrdValStorage;
use differential_dataflow::trace::implementations::ord_neu::{OrdValBuilder, Upds, Vals};
use differential_dataflow::trace::Builder;

use super::chunker::RunChunker;
use super::merger::PackedMerger;
use crate::packed::{PackedRef, PackedRow, PackedRows, PackedUpdates, SealedSizes};
use crate::repr::{Diff, Timestamp};
use crate::typedefs::{OksBatch, OksLayout};

/// Differential's batcher for `(key, row)` pairs: sorted runs, packed
/// back to back while they wait to be merged and sealed.
pub type OksBatcher = MergeBatcher<
    RunChunker<(PackedRow, PackedRow), Timestamp, Diff, PackedUpdates>,
    PackedMerger,
    OksSealer,
>;

/// Seals the oks batcher's chains with differential's builder, into room
/// counted exactly beforehand (`SealedSizes`). Differential's own seal
/// knows only how many keys, rows and updates are coming: it reserves ten
/// bytes for each key and row (twice an index key of one integer, all of a
/// table's empty values) and a time and a diff for every update, where
/// most pairs of a snapshot share one `(time, diff)` the batch stores once.
/// Reserved at the seal, beside the chain, that was the index build's peak,
/// and kept as long as the batch. (Merged batches are sized from theirs.)
pub struct OksSealer;

impl Sealer<PackedUpdates> for OksSealer {
    type Output = OksBatch;
    fn seal(chain: &mut Vec<PackedUpdates>) -> Option<OksBatch> {
        let sizes = SealedSizes::of(chain);
        let mut builder = OrdValBuilder::<OksLayout, PackedUpdates>::with_capacity(0, 0, 0);
        let mut vals = Vals::with_capacity(sizes.keys + 1, 0);
        vals.vals = PackedRows::with_bytes(sizes.vals, sizes.val_bytes);
        builder.result = OrdValStorage {
            keys: PackedRows::with_bytes(sizes.keys, sizes.key_bytes),
            vals,
            upds: Upds::with_capacity(sizes.vals + 1, sizes.stored),
        };
        for mut chunk in chain.drain(..) {
            builder.push(&mut chunk);
        }
        builder.done()
    }
}

/// The row an oks arrangement's `(key, value)` holds. Rows arranged by
/// themselves (a table's, a transient read's) are kept once, as the key,
/// with the empty row as the value; any other value is the row itself,
/// and an empty one is the row of no columns, whose key is empty too.
pub fn row_of<'a>(key: PackedRef<'a>, val: PackedRef<'a>) -> PackedRef<'a> {
    if val.is_empty() {
        key
    } else {
        val
    }
}
