//! A `jsonb` in a packed row: its value node by node, read back into a
//! `Jsonb`, and read in place as a `JsonbRef`, ordered as the `Jsonb` it
//! encodes. Apart from `mod.rs` so that the encoding's file stays short.
//!
//! A node is a byte and its content: `null`; `false`; `true`; a number
//! and its 24 bytes (`Numeric::to_bytes`); a string and its length (4
//! bytes) and UTF-8 bytes; an array and its count (4 bytes) and its
//! elements; an object and its count (4 bytes) and its entries, each a
//! key (length and bytes) and a value. Integers are little-endian. A
//! `Jsonb` is kept canonical (numbers reduced, keys sorted and unique), so
//! the encoding is unique: equal bytes are equal values.

use std::cmp::Ordering;

use crate::repr::jsonb::Jsonb;
use crate::repr::Numeric;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const NUMBER: u8 = 3;
const STRING: u8 = 4;
const ARRAY: u8 = 5;
const OBJECT: u8 = 6;

/// The bytes `write` takes for `j`.
pub(super) fn encoded_len(j: &Jsonb) -> usize {
    1 + match j {
        Jsonb::Null | Jsonb::Bool(_) => 0,
        Jsonb::Number(_) => Numeric::BYTES,
        Jsonb::String(s) => 4 + s.len(),
        Jsonb::Array(elements) => 4 + elements.iter().map(encoded_len).sum::<usize>(),
        Jsonb::Object(entries) => {
            4 + entries
                .iter()
                .map(|(k, v)| 4 + k.len() + encoded_len(v))
                .sum::<usize>()
        }
    }
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    let len = u32::try_from(len).expect("a jsonb shorter than 4 GiB");
    out.extend_from_slice(&len.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Appends `j`'s nodes to `out`.
pub(super) fn write(j: &Jsonb, out: &mut Vec<u8>) {
    match j {
        Jsonb::Null => out.push(NULL),
        Jsonb::Bool(false) => out.push(FALSE),
        Jsonb::Bool(true) => out.push(TRUE),
        Jsonb::Number(n) => {
            out.push(NUMBER);
            out.extend_from_slice(&n.to_bytes());
        }
        Jsonb::String(s) => {
            out.push(STRING);
            put_str(out, s);
        }
        Jsonb::Array(elements) => {
            out.push(ARRAY);
            put_len(out, elements.len());
            for e in elements {
                write(e, out);
            }
        }
        Jsonb::Object(entries) => {
            out.push(OBJECT);
            put_len(out, entries.len());
            for (k, v) in entries {
                put_str(out, k);
                write(v, out);
            }
        }
    }
}

/// Reads the nodes `write` wrote.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }

    fn len(&mut self) -> usize {
        u32::from_le_bytes(self.take(4).try_into().expect("4 bytes")) as usize
    }

    fn string(&mut self) -> String {
        let len = self.len();
        let bytes = self.take(len);
        std::str::from_utf8(bytes)
            .expect("packed text is UTF-8")
            .to_owned()
    }

    fn value(&mut self) -> Jsonb {
        let tag = self.take(1)[0];
        match tag {
            NULL => Jsonb::Null,
            FALSE => Jsonb::Bool(false),
            TRUE => Jsonb::Bool(true),
            NUMBER => {
                let bytes = self
                    .take(Numeric::BYTES)
                    .try_into()
                    .expect("a number's bytes");
                Jsonb::Number(Numeric::from_bytes(bytes))
            }
            STRING => Jsonb::String(self.string()),
            ARRAY => {
                let count = self.len();
                Jsonb::Array((0..count).map(|_| self.value()).collect())
            }
            OBJECT => {
                let count = self.len();
                let entry = |r: &mut Self| (r.string(), r.value());
                Jsonb::Object((0..count).map(|_| entry(self)).collect())
            }
            _ => unreachable!("a packed jsonb has no node {tag}"),
        }
    }
}

/// A `jsonb` read in place: its nodes, ordered as the `Jsonb` they encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct JsonbRef<'a>(pub(super) &'a [u8]);

impl JsonbRef<'_> {
    pub(super) fn unpack(self) -> Jsonb {
        Reader(self.0).value()
    }
}

impl Ord for JsonbRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match self.0 == other.0 {
            true => Ordering::Equal,
            false => self.unpack().cmp(&other.unpack()),
        }
    }
}

impl PartialOrd for JsonbRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
