//! The order of two packed rows, read in place: the hot comparison of
//! every arrangement's batcher and merge, apart so that the encoding's
//! module stays one a reader can hold.

use std::cmp::Ordering;

use super::{Datums, INT32, INT64};

/// The order of the rows two packings encode.
pub(super) fn compare(mut a: &[u8], mut b: &[u8]) -> Ordering {
    // Integers of one width, the common case, compare without building
    // datums; anything else compares datum by datum (and two rows read to
    // their ends are equal). No test of the whole rows for equality first:
    // the batchers and merges compare distinct rows almost always, and
    // that test was a `memcmp` call each time.
    loop {
        let (ordering, width) = match (a.first(), b.first()) {
            (Some(&INT32), Some(&INT32)) => (le_i32(&a[1..]).cmp(&le_i32(&b[1..])), 4),
            (Some(&INT64), Some(&INT64)) => (le_i64(&a[1..]).cmp(&le_i64(&b[1..])), 8),
            _ => return Datums(a).cmp(Datums(b)),
        };
        if ordering != Ordering::Equal {
            return ordering;
        }
        (a, b) = (&a[1 + width..], &b[1 + width..]);
    }
}

/// The `i32` at the start of `bytes`, as `pack` wrote it.
fn le_i32(bytes: &[u8]) -> i32 {
    i32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"))
}

/// The `i64` at the start of `bytes`, as `pack` wrote it.
fn le_i64(bytes: &[u8]) -> i64 {
    i64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
}
