//! An array in a packed row: after its length, the number of its
//! dimensions (a byte), each dimension's lower bound (8 bytes) and length
//! (4 bytes), then its elements, each a datum encoded as a row's; read in
//! place as an `ArrayRef`, ordered as the `Array` it encodes. Apart from
//! `mod.rs` so that the encoding's file stays short.

use std::cmp::Ordering;

use super::{encoded_len, write, DatumRef, Datums};
use crate::repr::array::{Array, Dim};

/// The bytes of `a` after its length.
pub(super) fn encoded_len_of(a: &Array) -> usize {
    1 + a.dims.len() * 12 + a.elements.iter().map(encoded_len).sum::<usize>()
}

/// Writes `a` (after its tag and length) into `out`, exactly
/// `encoded_len_of(a)` bytes.
pub(super) fn write_array(a: &Array, out: &mut [u8]) {
    out[0] = u8::try_from(a.dims.len()).expect("at most six dimensions");
    let mut at = 1;
    for d in &a.dims {
        out[at..at + 8].copy_from_slice(&d.lower.to_le_bytes());
        let length = u32::try_from(d.length).expect("a short dimension");
        out[at + 8..at + 12].copy_from_slice(&length.to_le_bytes());
        at += 12;
    }
    write(a.elements.iter(), &mut out[at..]);
}

/// An array read in place, ordered as the `Array` it encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ArrayRef<'a>(pub(super) &'a [u8]);

impl ArrayRef<'_> {
    pub(super) fn unpack(self) -> Array {
        let (&ndims, mut rest) = self.0.split_first().expect("an array's dimensions");
        let mut dims = Vec::with_capacity(usize::from(ndims));
        for _ in 0..ndims {
            let lower = i64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
            let length = u32::from_le_bytes(rest[8..12].try_into().expect("4 bytes"));
            dims.push(Dim {
                lower,
                length: length as usize,
            });
            rest = &rest[12..];
        }
        let elements = Datums(rest).map(DatumRef::to_datum).collect();
        Array { elements, dims }
    }
}

impl Ord for ArrayRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.unpack().cmp(&other.unpack())
    }
}

impl PartialOrd for ArrayRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
