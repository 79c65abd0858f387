//! What the generator knows as it goes: the relations it created (with
//! their indexes), the steps so far, the subscribes, named peeks and holds
//! still open, and the engine's clock; with the moves every kind of step
//! shares (fresh names, pushing a step, finding indexes, a `tick`). The
//! kinds of step (`schema.rs`, `reads.rs`, `lag.rs`) build on it.

use super::rng::Rng;
use super::scenario::{GenConfig, Step};

/// A relation the scenario can read: its name, its second column and
/// whether an index arranges it (and the index names).
#[derive(Clone, Debug)]
pub struct Relation {
    pub name: String,
    /// The column beside `k` (every relation starts with `k`).
    pub value: String,
    pub indexes: Vec<String>,
    /// A table (writable), not a view.
    pub table: bool,
    /// For a relation with a join's rows in it, the join-free relation a
    /// join reads in its place: joins of joins multiply rows per key
    /// (15 per key three ways, millions two levels up), which exhausts
    /// memory, not the engine's logic. A relation it reads, so it lives as
    /// long as this one does (a view that reads a relation refuses its drop).
    pub instead: Option<String>,
    /// The relations a view's FROM names (none for a table): each refuses
    /// the drop of the relations it names.
    pub reads: Vec<String>,
    /// It has had a default index (`CREATE DEFAULT INDEX`): only one is
    /// ever drawn, since a second would be named `<relation>_primary_idx1`
    /// only while the first exists, and shrinking may remove the first.
    pub defaulted: bool,
}

/// A directive block: its line, its input if any, and its `----` line.
pub fn block(directive: &str, input: &str) -> String {
    match input.is_empty() {
        true => format!("{directive}\n----\n"),
        false => format!("{directive}\n{input}\n----\n"),
    }
}

/// The state of one scenario being generated.
pub struct Generator {
    pub rng: Rng,
    pub config: GenConfig,
    pub relations: Vec<Relation>,
    pub steps: Vec<Step>,
    pub next: usize,
    /// Subscribes not yet cancelled, with the relation each names (a
    /// drop of it ends the subscribe: its next fetch reads the error).
    pub subscribes: Vec<(String, String)>,
    /// Named peeks not yet awaited, with their times and indexes.
    pub peeks: Vec<(String, u64, String)>,
    /// Holds not yet released, with their indexes.
    pub holds: Vec<(String, String)>,
    /// The engine's clock: every write and `tick` advances it by one.
    pub now: u64,
}

impl Generator {
    /// A generator for `seed`, before any step.
    pub fn new(seed: u64, config: &GenConfig) -> Generator {
        Generator {
            rng: Rng::new(seed),
            config: config.clone(),
            relations: Vec::new(),
            steps: Vec::new(),
            next: 0,
            subscribes: Vec::new(),
            peeks: Vec::new(),
            holds: Vec::new(),
            now: 0,
        }
    }

    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    pub fn push(&mut self, text: String, creates: Vec<String>, uses: Vec<String>) {
        self.steps.push(Step {
            text,
            creates,
            uses,
        });
    }

    pub fn tables(&self) -> Vec<String> {
        let tables = self.relations.iter().filter(|r| r.table);
        tables.map(|r| r.name.clone()).collect()
    }

    pub fn tick(&mut self) {
        self.now += 1;
        self.push(block("tick", ""), vec![], vec![]);
    }

    /// A relation with an index if there is one (a second index on it
    /// re-exports the first), else any relation.
    pub fn indexed_or_any(&mut self) -> usize {
        let with = self.indexed();
        match with.is_empty() {
            true => self.rng.below(self.relations.len()),
            false => *self.rng.pick(&with),
        }
    }

    /// The positions of the relations that have an index.
    pub fn indexed(&self) -> Vec<usize> {
        let relations = 0..self.relations.len();
        relations
            .filter(|i| !self.relations[*i].indexes.is_empty())
            .collect()
    }

    /// The position of the relation named `name`.
    pub fn position(&self, name: &str) -> usize {
        let found = self.relations.iter().position(|r| r.name == name);
        found.expect("a live relation")
    }

    /// Every live index.
    pub fn indexes(&self) -> Vec<String> {
        let each = self
            .relations
            .iter()
            .flat_map(|r| r.indexes.iter().cloned());
        each.collect()
    }
}
