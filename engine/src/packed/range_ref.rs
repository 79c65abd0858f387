//! A range in a packed row: its flags and bounds read back into a
//! `Range`, and read in place as a `RangeRef`, ordered as the `Range` it
//! encodes. Apart from `mod.rs` so that the encoding's file stays short.

use std::cmp::Ordering;

use super::{DatumRef, Datums};
use crate::repr::range::{self, Bound, Range};

/// The range `bytes` encodes (its flags and bounds, after its length).
fn unpack_range(bytes: &[u8]) -> Range {
    let (&flags, rest) = bytes.split_first().expect("a range's flags");
    if flags & range::flag::EMPTY != 0 {
        return Range::EMPTY;
    }
    let mut values = Datums(rest).map(DatumRef::to_datum);
    let mut bound = |inclusive: u8, infinite: u8| Bound {
        inclusive: flags & inclusive != 0,
        value: match flags & infinite {
            0 => Some(values.next().expect("a finite bound")),
            _ => None,
        },
    };
    let lower = bound(range::flag::LOWER_INCLUSIVE, range::flag::LOWER_INFINITE);
    let upper = bound(range::flag::UPPER_INCLUSIVE, range::flag::UPPER_INFINITE);
    Range(Some((lower, upper)))
}

/// A range read in place: its flags and bounds, ordered as the `Range`
/// they encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RangeRef<'a>(pub(super) &'a [u8]);

impl RangeRef<'_> {
    pub(super) fn unpack(self) -> Range {
        unpack_range(self.0)
    }
}

impl Ord for RangeRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.unpack().cmp(&other.unpack())
    }
}

impl PartialOrd for RangeRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
