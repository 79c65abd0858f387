//! Steps that read: queries (fast-path peeks or transient dataflows),
//! peeks on indexes now or in the past, named peeks and their awaits, read
//! holds and their releases, subscribes and fetches, and the introspection
//! queries whose answers differ when one worker's sharing goes wrong.

use super::state::{block, Generator};

impl Generator {
    /// A read of a random relation, as (text, relation): a fast-path peek
    /// when the relation is indexed and the read is a `SELECT *` (whole,
    /// of one key or in the past), else a transient dataflow importing it.
    pub fn read_text(&mut self) -> (String, String) {
        let r = self.rng.pick(&self.relations).clone();
        let k = self.rng.range(0, self.config.keys - 1);
        let sql = match self.rng.below(4) {
            0 => format!("SELECT * FROM {} WHERE k = {k}", r.name),
            1 if self.now > 1 => {
                let back = 1 + self.rng.below((self.now as usize).min(3));
                // A read in the past: refused (compaction) unless held, the
                // same in every configuration.
                format!("SELECT * FROM {} AS OF {}", r.name, self.now - back as u64)
            }
            2 => format!("SELECT k, count(*) FROM {} GROUP BY k", r.name),
            _ => format!("SELECT * FROM {}", r.name),
        };
        (block("query", &sql), r.name)
    }

    pub fn read(&mut self) {
        let (text, relation) = self.read_text();
        self.push(text, vec![], vec![relation]);
    }

    /// A fast-path peek on an index, now or (a third of the time) one or
    /// two times in the past, refused unless something holds it there.
    pub fn peek(&mut self) {
        let indexes = self.indexes();
        if indexes.is_empty() {
            return self.read();
        }
        let index = self.rng.pick(&indexes).clone();
        let directive = match self.rng.below(3) {
            0 if self.now > 0 => {
                let back = 1 + self.rng.below((self.now as usize).min(2));
                format!("peek index={index} as-of={}", self.now - back as u64)
            }
            _ => format!("peek index={index}"),
        };
        self.push(block(&directive, ""), vec![], vec![index]);
    }

    /// A named peek on `index` at `at`, as its block and name; it holds
    /// the index until it is awaited.
    pub fn named_peek_text(&mut self, index: &str, at: u64) -> (String, String) {
        let name = self.fresh("p");
        self.peeks.push((name.clone(), at, index.to_string()));
        let directive = format!("peek index={index} as-of={at} name={name}");
        (block(&directive, ""), name)
    }

    /// A named peek at now or a time still to come.
    pub fn named_peek(&mut self) {
        let indexes = self.indexes();
        if indexes.is_empty() {
            return self.create_index();
        }
        let index = self.rng.pick(&indexes).clone();
        let at = self.now + self.rng.below(3) as u64;
        let (text, name) = self.named_peek_text(&index, at);
        self.push(text, vec![name], vec![index]);
    }

    /// Awaits a named peek whose time has come; time moves on when none
    /// has.
    pub fn await_peek(&mut self) {
        let due: Vec<usize> = (0..self.peeks.len())
            .filter(|i| self.peeks[*i].1 <= self.now)
            .collect();
        match (due.is_empty(), self.peeks.is_empty()) {
            (_, true) => self.named_peek(),
            (true, false) => self.tick(),
            (false, false) => {
                let (name, _, _) = self.peeks.remove(*self.rng.pick(&due));
                let text = block(&format!("await name={name}"), "");
                self.push(text, vec![], vec![name]);
            }
        }
    }

    /// A read hold on an index, at now or the next time.
    pub fn hold(&mut self) {
        let indexes = self.indexes();
        if indexes.is_empty() {
            return self.create_index();
        }
        let index = self.rng.pick(&indexes).clone();
        let name = self.fresh("h");
        let at = self.now + self.rng.below(2) as u64;
        let directive = format!("hold on={index} at={at} name={name}");
        self.holds.push((name.clone(), index.clone()));
        self.push(block(&directive, ""), vec![name], vec![index]);
    }

    pub fn release(&mut self) {
        if self.holds.is_empty() {
            return self.hold();
        }
        let (name, _) = self.holds.remove(self.rng.below(self.holds.len()));
        let text = block(&format!("release name={name}"), "");
        self.push(text, vec![], vec![name]);
    }

    /// The controller's compaction command on an index or a table, to
    /// `now`: past the holds and pending named peeks that held its since
    /// back, so that reads at earlier times meet the compaction message,
    /// the same in every configuration. Never past `now`: an index
    /// created over an input compacted past `now` is refused by the engine
    /// (its `as_of` is `now`) where the model expects it to be created, a
    /// difference of rules not yet decided (docs/tools/explorer.md).
    pub fn allow_compaction(&mut self) {
        let mut names = self.indexes();
        names.extend(self.tables());
        let name = self.rng.pick(&names).clone();
        let since = self.now;
        let directive = format!("allow-compaction on={name} since={since}");
        self.push(block(&directive, ""), vec![], vec![name]);
    }

    pub fn error_counts(&mut self) {
        let sql = "SELECT export_id, count FROM mz_compute_error_counts";
        self.push(block("query", sql), vec![], vec![]);
    }

    /// Each index's since and upper, the same on every worker unless one
    /// worker's sharing went wrong.
    pub fn frontiers(&mut self) {
        let sql = "SELECT DISTINCT export_id, since, upper FROM mz_arrangement_frontiers";
        self.push(block("query", sql), vec![], vec![]);
    }

    /// A subscribe, a third of the time with an `UP TO` a time or two
    /// ahead: it then ends by itself, its import having read to its end
    /// while its dataflow still lives (until the coordinator sees it end).
    pub fn subscribe(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        self.subscribe_to(&r.name, 3);
    }

    /// A subscribe to all of `relation`, one time in `up_to_one_in` with an
    /// `UP TO` a time or two ahead, kept as live on it.
    pub fn subscribe_to(&mut self, relation: &str, up_to_one_in: usize) {
        let name = self.fresh("s");
        let up_to = match self.rng.below(up_to_one_in) {
            0 => format!(" UP TO {}", self.now + 1 + self.rng.below(2) as u64),
            _ => String::new(),
        };
        let sql = format!("SUBSCRIBE TO (SELECT * FROM {relation}){up_to}");
        let text = block(&format!("subscribe name={name}"), &sql);
        self.push(text, vec![name.clone()], vec![relation.to_string()]);
        self.subscribes.push((name, relation.to_string()));
    }

    pub fn fetch(&mut self) {
        if self.subscribes.is_empty() {
            return self.subscribe();
        }
        let (name, _) = self.rng.pick(&self.subscribes).clone();
        self.push(block(&format!("fetch name={name}"), ""), vec![], vec![name]);
    }
}
