//! `--partition i/n`: splits the suite across CI machines. A file belongs to
//! one shard, chosen by a stable hash of its path relative to the scenario
//! directory, so shards never overlap, together cover every file, and a
//! file stays on its shard when other files come and go.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub index: u64,
    pub count: u64,
}

impl Partition {
    /// Whether the file at `rel` (`/`-separated, relative to DIR) is in this shard.
    pub fn contains(&self, rel: &str) -> bool {
        fnv1a(rel.as_bytes()) % self.count + 1 == self.index
    }
}

/// FNV-1a, 64 bits: stable across platforms, Rust versions and runs (the
/// standard library's hashers promise none of that).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl FromStr for Partition {
    type Err = String;

    fn from_str(s: &str) -> Result<Partition, String> {
        let bad = || format!("--partition `{s}`: expected `i/n` with 1 <= i <= n, e.g. `2/3`");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Partition { index, count })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!("2/3".parse(), Ok(Partition { index: 2, count: 3 }));
        assert_eq!("1/1".parse::<Partition>().unwrap().to_string(), "1/1");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2/3", ""] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_cover_every_file_exactly_once() {
        let files: Vec<String> = (0..200).map(|i| format!("dir{}/f{i}.slt", i % 7)).collect();
        for count in 1..=5 {
            let shards: Vec<Partition> = (1..=count)
                .map(|index| Partition { index, count })
                .collect();
            let mut sizes = vec![0; count as usize];
            for f in &files {
                let owners: Vec<&Partition> = shards.iter().filter(|p| p.contains(f)).collect();
                assert_eq!(owners.len(), 1, "{f} in {count} shards");
                sizes[owners[0].index as usize - 1] += 1;
            }
            // Not perfectly even, but no shard is starved.
            assert!(
                sizes.iter().all(|&n| n > 200 / count as usize / 2),
                "{sizes:?}"
            );
        }
    }

    #[test]
    fn the_hash_is_stable() {
        // Pinned: changing the hash would reshuffle every CI shard.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"tables/basic.dd") % 3, fnv1a(b"tables/basic.dd") % 3);
    }
}
