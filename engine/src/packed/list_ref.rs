//! A list in a packed row: after its length, its elements, each a datum
//! encoded as a row's; read in place as a `ListRef`, ordered as the
//! `Vec<Datum>` it encodes (element by element, a prefix first), which is
//! `Datums`' own order. Apart from `mod.rs` so that the encoding's file
//! stays short.

use std::cmp::Ordering;

use super::{DatumRef, Datums};
use crate::repr::Datum;

/// A list read in place, ordered as the elements it encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ListRef<'a>(pub(super) &'a [u8]);

impl ListRef<'_> {
    pub(super) fn unpack(self) -> Vec<Datum> {
        Datums(self.0).map(DatumRef::to_datum).collect()
    }
}

impl Ord for ListRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        Datums(self.0).cmp(Datums(other.0))
    }
}

impl PartialOrd for ListRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
