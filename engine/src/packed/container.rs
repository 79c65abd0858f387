//! An arrangement's keys or rows as packed rows back to back in one byte
//! vector, with where each ends: no 24-byte slot per row, and no
//! allocation for a row too long to be inline, where a `Vec<PackedRow>`
//! has both.

use differential_dataflow::trace::implementations::BatchContainer;
use timely::container::PushInto;

use super::{Offsets, PackedRef, PackedRow};

/// Packed rows, read back as `PackedRef`s.
pub struct PackedRows {
    bytes: Vec<u8>,
    /// Where each row's bytes end (rows of one width: a stride).
    ends: Offsets,
}

impl PackedRows {
    /// Room for `rows` rows of `bytes` bytes in all.
    pub fn with_bytes(rows: usize, bytes: usize) -> Self {
        PackedRows {
            bytes: Vec::with_capacity(bytes),
            ends: Offsets::with_capacity(rows),
        }
    }

    pub fn push(&mut self, row: PackedRef<'_>) {
        self.bytes.extend_from_slice(row.bytes());
        self.ends.push(self.bytes.len());
    }

    /// The bytes the rows take.
    pub fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// Bytes reserved and not taken by a row.
    #[cfg(test)]
    pub fn spare(&self) -> usize {
        self.bytes.capacity() - self.bytes.len()
    }
}

impl Default for PackedRows {
    fn default() -> Self {
        PackedRows::with_bytes(0, 0)
    }
}

impl PushInto<PackedRef<'_>> for PackedRows {
    fn push_into(&mut self, row: PackedRef<'_>) {
        self.push(row);
    }
}

impl PushInto<PackedRow> for PackedRows {
    fn push_into(&mut self, row: PackedRow) {
        self.push(row.as_ref());
    }
}

impl BatchContainer for PackedRows {
    type Owned = PackedRow;
    type ReadItem<'a> = PackedRef<'a>;

    fn into_owned<'a>(row: PackedRef<'a>) -> PackedRow {
        row.to_owned()
    }

    fn push_ref(&mut self, row: PackedRef<'_>) {
        self.push(row);
    }

    fn push_own(&mut self, row: &PackedRow) {
        self.push(row.as_ref());
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }

    fn with_capacity(rows: usize) -> Self {
        // A guess of the bytes: a row of a couple of integers.
        PackedRows::with_bytes(rows, rows * 10)
    }

    fn merge_capacity(a: &Self, b: &Self) -> Self {
        PackedRows::with_bytes(a.len() + b.len(), a.bytes.len() + b.bytes.len())
    }

    fn reborrow<'b, 'a: 'b>(row: PackedRef<'a>) -> PackedRef<'b> {
        row
    }

    fn index(&self, index: usize) -> PackedRef<'_> {
        let start = match index {
            0 => 0,
            _ => self.ends.index(index - 1),
        };
        PackedRef(&self.bytes[start..self.ends.index(index)])
    }

    fn len(&self) -> usize {
        self.ends.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum;

    #[test]
    fn rows_read_back_as_pushed() {
        let rows: Vec<PackedRow> = vec![
            PackedRow::pack(&[]),
            PackedRow::pack(&[Datum::Int32(7), Datum::Null]),
            PackedRow::pack(&[Datum::Text("a text longer than fits inline".into())]),
            PackedRow::pack(&[Datum::Int64(-1)]),
        ];
        let mut container = PackedRows::with_capacity(1);
        for row in &rows {
            container.push_own(row);
        }
        let mut merged = PackedRows::merge_capacity(&container, &container);
        for i in 0..container.len() {
            merged.push_ref(container.index(i));
        }
        assert_eq!(merged.len(), rows.len());
        for (i, row) in rows.iter().enumerate() {
            assert!(merged.index(i) == row);
            assert_eq!(PackedRows::into_owned(merged.index(i)), *row);
            assert_eq!(merged.index(i).unpack(), row.unpack());
        }
        merged.clear();
        assert!(merged.is_empty());
    }
}
