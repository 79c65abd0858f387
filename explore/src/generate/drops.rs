//! Steps that drop what exists, aimed at what live reads use: a table or
//! a view (with the indexes on it; refused while a view reads it), an
//! index, and the index a live subscribe's shared import reads. Two times
//! in three a drop takes something a live subscribe, named peek or hold
//! uses, when there is one: that is where a drop has a read to end or an
//! arrangement to keep alive (no generated scenario did until generator
//! version 4, and the engine panicked there, issue 33). And a subscribe
//! whose input is dropped at once, before time reaches its `UP TO`.

use super::state::{block, Generator};

impl Generator {
    /// The positions of the relations a live read uses: a subscribe names
    /// it, or a named peek or a hold names one of its indexes.
    fn under_reads(&self) -> Vec<usize> {
        let used = |name: &str, indexes: &[String]| {
            self.subscribes.iter().any(|(_, on)| on == name)
                || self.peeks.iter().any(|(_, _, i)| indexes.contains(i))
                || self.holds.iter().any(|(_, i)| indexes.contains(i))
        };
        let all = 0..self.relations.len();
        all.filter(|i| used(&self.relations[*i].name, &self.relations[*i].indexes))
            .collect()
    }

    /// The indexes a read of relation `name` imports, as (relation, index)
    /// positions: its lowest-id index, or, for a view without one, those
    /// its inputs are read through (a table without one is read as such).
    /// None once it is dropped (a subscribe that named it has ended).
    fn read_through(&self, name: &str) -> Vec<(usize, usize)> {
        let Some(at) = self.relations.iter().position(|r| r.name == name) else {
            return Vec::new();
        };
        let r = &self.relations[at];
        match (r.indexes.is_empty(), r.table) {
            (false, _) => vec![(at, 0)],
            (true, true) => Vec::new(),
            (true, false) => r.reads.iter().flat_map(|n| self.read_through(n)).collect(),
        }
    }

    /// `DROP TABLE` or `DROP VIEW`, with the indexes on the relation. A
    /// view that reads it refuses the drop, which is generated too (and
    /// changes nothing). The last table dropped, a new one is created, so
    /// that writes go on.
    pub fn drop_relation(&mut self) {
        let under = self.under_reads();
        let i = match under.is_empty() || self.rng.below(3) == 0 {
            true => self.rng.below(self.relations.len()),
            false => *self.rng.pick(&under),
        };
        self.drop_relation_at(i);
    }

    /// `DROP TABLE` or `DROP VIEW` of the relation at position `i`.
    fn drop_relation_at(&mut self, i: usize) {
        let r = self.relations[i].clone();
        let kind = if r.table { "TABLE" } else { "VIEW" };
        let text = block("statement", &format!("DROP {kind} {}", r.name));
        self.push(text, vec![], vec![r.name.clone()]);
        if self.relations.iter().any(|o| o.reads.contains(&r.name)) {
            return;
        }
        self.relations.remove(i);
        if self.tables().is_empty() {
            self.create_table();
        }
    }

    /// A subscribe on an indexed relation (half the time with an `UP TO`
    /// a time or two ahead), then at once the index its import reads (two
    /// times in three) or the relation dropped, then writes past its
    /// `UP TO`: under sharing the dropped index's publication drains while
    /// the import reads it to its end; a dropped relation ends it.
    pub fn drop_under_subscribe(&mut self) {
        let with = self.indexed();
        if with.is_empty() {
            return self.create_index();
        }
        let r = self.relations[*self.rng.pick(&with)].clone();
        self.subscribe_to(&r.name, 2);
        match self.rng.below(3) {
            0 => self.drop_relation_at(self.position(&r.name)),
            _ => {
                let at = self.position(&r.name);
                let index = self.relations[at].indexes.remove(0);
                let text = block("statement", &format!("DROP INDEX {index}"));
                self.push(text, vec![], vec![index]);
            }
        }
        for _ in 0..2 {
            let (write, table) = self.write_text();
            self.push(write, vec![], vec![table]);
        }
    }

    /// `DROP INDEX`: two times in three one a live read uses, if any (the
    /// index a subscribe's import reads, or one a named peek or a hold
    /// names), else any index (a re-export too).
    pub fn drop_index(&mut self) {
        let mut used: Vec<(usize, usize)> = Vec::new();
        for (_, on) in &self.subscribes {
            used.extend(self.read_through(on));
        }
        let named = self.peeks.iter().map(|(_, _, i)| i);
        for index in named.chain(self.holds.iter().map(|(_, i)| i)) {
            let relations = self.relations.iter().enumerate();
            let mut found = relations.filter_map(|(r, rel)| {
                let at = rel.indexes.iter().position(|i| i == index)?;
                Some((r, at))
            });
            used.extend(found.next());
        }
        let (r, at) = match used.is_empty() || self.rng.below(3) == 0 {
            false => *self.rng.pick(&used),
            true => {
                let with = self.indexed();
                if with.is_empty() {
                    return self.create_index();
                }
                let r = *self.rng.pick(&with);
                (r, self.rng.below(self.relations[r].indexes.len()))
            }
        };
        let index = self.relations[r].indexes.remove(at);
        let text = block("statement", &format!("DROP INDEX {index}"));
        self.push(text, vec![], vec![index]);
    }
}
