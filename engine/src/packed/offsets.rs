//! Offsets into an arrangement's keys, values, updates and packed rows,
//! kept as an irregular head and an arithmetic tail: where every row is as
//! wide as the last (rows of integers), every key has one value (a table's
//! rows, an index on a unique key) or every value shares the one update a
//! batch stores, the offsets are `first, first + stride, ...`, and four
//! bytes an offset (differential's `OffsetList`) come to a few words. What
//! breaks the pattern goes to the head, an `OffsetList`, as it comes.

use differential_dataflow::trace::implementations::{BatchContainer, OffsetList};
use timely::container::PushInto;

/// Offsets, nondecreasing as differential's containers push them (any
/// other order is kept too, in the head).
pub struct Offsets {
    /// The offsets before the tail, and how many (asked at every read).
    head: OffsetList,
    head_len: usize,
    /// The tail: `count` offsets from `first`, each `stride` past the last.
    first: usize,
    stride: usize,
    count: usize,
    /// The offset that would extend the tail (once it has two).
    next: usize,
    /// How many offsets the container was made for: reserved in the head
    /// once the tail first breaks, and not before (a regular list never
    /// needs it).
    capacity: usize,
}

impl Offsets {
    pub fn with_capacity(capacity: usize) -> Self {
        Offsets {
            head: OffsetList::with_capacity(0),
            head_len: 0,
            first: 0,
            stride: 0,
            count: 0,
            next: 0,
            capacity,
        }
    }

    #[inline]
    pub fn push(&mut self, offset: usize) {
        if offset == self.next && self.count >= 2 {
            self.count += 1;
            self.next += self.stride;
        } else {
            self.push_new(offset);
        }
    }

    /// Starts or breaks the tail with `offset`.
    fn push_new(&mut self, offset: usize) {
        match self.count {
            0 => (self.first, self.count) = (offset, 1),
            1 if offset >= self.first => (self.stride, self.count) = (offset - self.first, 2),
            _ => {
                // The tail but its last offset goes to the head; the last
                // starts the new tail with this one, if it can.
                let last = self.first + self.stride * (self.count - 1);
                self.spill(self.count - 1);
                if offset >= last {
                    (self.stride, self.count) = (offset - last, 2);
                } else {
                    self.spill(1);
                    (self.first, self.count) = (offset, 1);
                }
            }
        }
        self.next = self.first + self.stride * self.count;
    }

    /// Moves the tail's first `n` offsets to the head, and `first` past
    /// them; the caller sets the count.
    fn spill(&mut self, n: usize) {
        if self.head_len == 0 {
            self.head.smol.reserve(self.capacity);
        }
        for i in 0..n {
            self.head.push(self.first + self.stride * i);
        }
        self.head_len += n;
        self.first += self.stride * n;
    }

    #[inline]
    pub fn index(&self, index: usize) -> usize {
        match index.checked_sub(self.head_len) {
            None => self.head.index(index),
            Some(at) => {
                debug_assert!(at < self.count, "offset {index} of {}", self.len());
                self.first + self.stride * at
            }
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.head_len + self.count
    }

    /// The offsets the head holds one by one (for tests).
    #[cfg(test)]
    fn irregular(&self) -> usize {
        assert_eq!(self.head.len(), self.head_len);
        self.head_len
    }
}

impl Default for Offsets {
    fn default() -> Self {
        Offsets::with_capacity(0)
    }
}

impl PushInto<usize> for Offsets {
    fn push_into(&mut self, offset: usize) {
        self.push(offset);
    }
}

impl BatchContainer for Offsets {
    type Owned = usize;
    type ReadItem<'a> = usize;

    fn into_owned<'a>(offset: usize) -> usize {
        offset
    }

    fn reborrow<'b, 'a: 'b>(offset: usize) -> usize {
        offset
    }

    fn push_ref(&mut self, offset: usize) {
        self.push(offset);
    }

    fn push_own(&mut self, offset: &usize) {
        self.push(*offset);
    }

    fn clear(&mut self) {
        self.head.clear();
        self.head_len = 0;
        self.count = 0;
    }

    fn with_capacity(size: usize) -> Self {
        Offsets::with_capacity(size)
    }

    fn merge_capacity(a: &Self, b: &Self) -> Self {
        Offsets::with_capacity(a.len() + b.len())
    }

    fn index(&self, index: usize) -> usize {
        self.index(index)
    }

    fn len(&self) -> usize {
        self.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets(values: &[usize]) -> Offsets {
        let mut offsets = Offsets::with_capacity(values.len());
        for &value in values {
            offsets.push(value);
        }
        offsets
    }

    fn read(offsets: &Offsets) -> Vec<usize> {
        (0..offsets.len()).map(|i| offsets.index(i)).collect()
    }

    /// Regular offsets take no head; each break of the pattern costs the
    /// offsets before it, and the list reads back as pushed whatever came.
    #[test]
    fn offsets_read_back_as_pushed_and_keep_only_irregular_ones() {
        let cases: [(&[usize], usize); 8] = [
            (&[], 0),
            (&[7], 0),
            (&[0, 10, 20, 30, 40], 0),
            (&[0, 1, 1, 1, 1, 1], 1),
            (&[0, 0, 0, 5, 10, 15], 2),
            (&[0, 3, 4, 9, 9, 12], 4),
            (&[5, 2, 2, 2], 1),
            (&[0, 4, 8, 3, 2, 9], 4),
        ];
        for (values, irregular) in cases {
            let offsets = offsets(values);
            assert_eq!(read(&offsets), values, "{values:?}");
            assert_eq!(offsets.irregular(), irregular, "{values:?}");
        }
        let mut cleared = offsets(&[0, 3, 4, 9]);
        cleared.clear();
        cleared.push(2);
        assert_eq!(read(&cleared), [2]);
    }

    /// Differential reads and writes the offsets through its trait, as
    /// the list they are; a container made for many, or for a merge of
    /// two, reserves them once irregular.
    #[test]
    fn the_trait_reads_and_writes_the_offsets() {
        let mut offsets = <Offsets as BatchContainer>::with_capacity(8);
        offsets.push_own(&0);
        offsets.push_ref(3);
        offsets.push_into(4);
        offsets.push_own(&9);
        assert_eq!(BatchContainer::len(&offsets), 4);
        let read: Vec<usize> = (0..4)
            .map(|i| Offsets::into_owned(Offsets::reborrow(BatchContainer::index(&offsets, i))))
            .collect();
        assert_eq!(read, [0, 3, 4, 9]);
        assert!(offsets.head.smol.capacity() >= 8);
        let mut merged = Offsets::merge_capacity(&offsets, &offsets);
        for value in [0, 3, 4] {
            merged.push_ref(value);
        }
        assert!(merged.head.smol.capacity() >= 8);
    }

    /// The head reserves what the container was made for once the pattern
    /// first breaks, and nothing while it holds.
    #[test]
    fn the_head_reserves_only_once_irregular() {
        let regular = offsets(&[0, 2, 4, 6]);
        assert_eq!(regular.head.smol.capacity(), 0);
        let mut irregular = Offsets::with_capacity(100);
        for value in [0, 2, 3] {
            irregular.push(value);
        }
        assert!(irregular.head.smol.capacity() >= 98);
    }
}
