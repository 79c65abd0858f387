//! Steps in which a runtime falls behind: maintenance or the interactive
//! runtime paused while writes, indexes and reads pile up, then resumed;
//! and an index that one maintenance worker renders after the others.

use super::state::{block, Generator};

impl Generator {
    /// Maintenance falls behind a few writes and, half the time, a new
    /// index (a re-export where one exists) with a named peek on it, then
    /// catches up. Nothing is read meanwhile: Solo pauses its one
    /// runtime, sharing only maintenance, so a pending read's diagnosis
    /// differs by design.
    pub fn maintenance_lag(&mut self) {
        let mut text = block("pause runtime=maintenance", "");
        let (mut creates, mut uses) = (Vec::new(), Vec::new());
        let before = self.rng.below(2);
        let after = self.rng.below(2);
        for n in 0..before + 1 + after {
            if n == before && self.rng.below(2) == 0 {
                let i = self.indexed_or_any();
                let (index_text, index, on) = self.index_text(i);
                let (peek, peek_name) = self.named_peek_text(&index, self.now);
                text = text + "\n" + &index_text + "\n" + &peek;
                creates.extend([index, peek_name]);
                uses.push(on);
            } else {
                let (write, table) = self.write_text();
                text = text + "\n" + &write;
                uses.push(table);
            }
        }
        text = text + "\n" + &block("resume runtime=maintenance", "");
        self.push(text, creates, uses);
    }

    /// The interactive runtime falls behind: an index is created, read
    /// (the read stays pending, as every read does while the runtime that
    /// serves it is paused, in Solo and under sharing alike) and written
    /// past, then the runtime catches up with all of it at once.
    pub fn interactive_lag(&mut self) {
        let mut text = block("pause runtime=interactive", "");
        let (mut creates, mut uses) = (Vec::new(), Vec::new());
        if self.rng.below(3) > 0 {
            let i = self.rng.below(self.relations.len());
            let (index_text, index, on) = self.index_text(i);
            text = text + "\n" + &index_text;
            creates.push(index);
            uses.push(on);
        }
        if self.rng.below(2) == 0 {
            let (read, relation) = self.read_text();
            text = text + "\n" + &read;
            uses.push(relation);
        }
        for _ in 0..self.rng.below(3) {
            let (write, table) = self.write_text();
            text = text + "\n" + &write;
            uses.push(table);
        }
        text = text + "\n" + &block("resume runtime=interactive", "");
        self.push(text, creates, uses);
    }

    /// An index (a re-export where one exists) that maintenance worker 0
    /// renders only after the interactive runtime bound its point, and the
    /// other workers before it: whether an alias or its fallback serves
    /// it differs per worker. With one worker, worker 0 is every worker.
    pub fn staggered_index(&mut self) {
        let i = self.indexed_or_any();
        let (index_text, index, on) = self.index_text(i);
        let mut text = block("pause runtime=interactive", "");
        text = text + "\n" + &block("pause runtime=maintenance worker=0", "");
        text = text + "\n" + &index_text;
        for line in [
            "pause runtime=maintenance",
            "resume runtime=interactive",
            "resume runtime=maintenance",
        ] {
            text = text + "\n" + &block(line, "");
        }
        self.push(text, vec![index], vec![on]);
    }
}
