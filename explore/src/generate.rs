//! Scenarios from a seed: a list of steps, each one or more datadriven
//! directives that are valid given the steps before it, biased toward what
//! breaks sharing (indexes and their re-exports, drops, errors in views,
//! joins and reductions over indexed inputs, maintenance lagging behind,
//! live subscribes). The same seed gives the same bytes on every machine:
//! the generator draws only from its own SplitMix64 and iterates only
//! vectors.

/// Bumped whenever the same seed would generate a different scenario.
pub const VERSION: u32 = 3;

/// Sizes and weights of a generated scenario.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Steps after the tables are created.
    pub steps: usize,
    /// Tables created up front.
    pub tables: usize,
    /// Keys drawn from `0..keys`; values from `-2..=3` (so some are 0).
    pub keys: i64,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            steps: 30,
            tables: 2,
            keys: 4,
        }
    }
}

/// One step: directive blocks (each ending in its `----` line), the names
/// it creates, and the names it needs. Dropping a step drops every later
/// step that uses what it creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub text: String,
    pub creates: Vec<String>,
    pub uses: Vec<String>,
}

/// A generated scenario: its seed and steps.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub seed: u64,
    pub steps: Vec<Step>,
}

impl Scenario {
    /// The scenario as a `.dd` file (outputs empty), after `header` lines.
    pub fn render(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header.iter().flat_map(|h| h.lines()) {
            text.push_str(&format!("# {line}\n"));
        }
        if !header.is_empty() {
            text.push('\n');
        }
        let blocks: Vec<&str> = self.steps.iter().map(|s| s.text.as_str()).collect();
        text.push_str(&blocks.join("\n"));
        text
    }
}

/// A relation the scenario can read: its name, its second column and
/// whether an index arranges it (and the index names).
#[derive(Clone, Debug)]
struct Relation {
    name: String,
    /// The column beside `k` (every relation starts with `k`).
    value: String,
    indexes: Vec<String>,
    /// A table (writable), not a view.
    table: bool,
    /// For a relation with a join's rows in it, the join-free relation a
    /// join reads in its place: joins of joins multiply rows per key
    /// (15 per key three ways, millions two levels up), which exhausts
    /// memory, not the engine's logic.
    instead: Option<usize>,
}

/// SplitMix64: small, fast, and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next_u64() % (high - low + 1) as u64) as i64
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn block(directive: &str, input: &str) -> String {
    match input.is_empty() {
        true => format!("{directive}\n----\n"),
        false => format!("{directive}\n{input}\n----\n"),
    }
}

/// Generates the scenario of `seed`.
pub fn generate(seed: u64, config: &GenConfig) -> Scenario {
    let mut g = Generator {
        rng: Rng::new(seed),
        config: config.clone(),
        relations: Vec::new(),
        steps: Vec::new(),
        next: 0,
        subscribes: Vec::new(),
        peeks: Vec::new(),
        holds: Vec::new(),
        now: 0,
    };
    for _ in 0..config.tables.max(1) {
        g.create_table();
    }
    for _ in 0..config.steps {
        g.step();
    }
    g.finish();
    Scenario {
        seed,
        steps: g.steps,
    }
}

struct Generator {
    rng: Rng,
    config: GenConfig,
    relations: Vec<Relation>,
    steps: Vec<Step>,
    next: usize,
    subscribes: Vec<String>,
    /// Named peeks not yet awaited, with their times.
    peeks: Vec<(String, u64)>,
    /// Holds not yet released.
    holds: Vec<String>,
    /// The engine's clock: every write and `tick` advances it by one.
    now: u64,
}

impl Generator {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn push(&mut self, text: String, creates: Vec<String>, uses: Vec<String>) {
        self.steps.push(Step {
            text,
            creates,
            uses,
        });
    }

    fn tables(&self) -> Vec<String> {
        let tables = self.relations.iter().filter(|r| r.table);
        tables.map(|r| r.name.clone()).collect()
    }

    fn create_table(&mut self) {
        let name = self.fresh("t");
        let sql = format!("CREATE TABLE {name} (k int, v int)");
        self.push(block("statement", &sql), vec![name.clone()], vec![]);
        self.relations.push(Relation {
            name,
            value: "v".into(),
            indexes: Vec::new(),
            table: true,
            instead: None,
        });
    }

    fn values(&mut self) -> String {
        let rows = 1 + self.rng.below(3);
        let keys = self.config.keys;
        let values: Vec<String> = (0..rows)
            .map(|_| {
                let k = self.rng.range(0, keys - 1);
                let v = self.rng.range(-2, 3);
                format!("({k}, {v})")
            })
            .collect();
        values.join(", ")
    }

    /// A write statement to a random table, as (block, table).
    fn write_text(&mut self) -> (String, String) {
        let tables = self.tables();
        let table = self.rng.pick(&tables).clone();
        let k = self.rng.range(0, self.config.keys - 1);
        let sql = match self.rng.below(6) {
            0 => format!("DELETE FROM {table} WHERE k = {k}"),
            1 => format!(
                "UPDATE {table} SET v = {} WHERE k = {k}",
                self.rng.range(-2, 3)
            ),
            _ => format!("INSERT INTO {table} VALUES {}", self.values()),
        };
        self.now += 1;
        (block("statement", &sql), table)
    }

    fn step(&mut self) {
        match self.rng.below(32) {
            0..=4 => {
                let (write, table) = self.write_text();
                self.push(write, vec![], vec![table]);
            }
            5..=7 => self.create_index(),
            8 | 9 => self.error_view(),
            10..=12 => self.join_view(),
            13 => self.reduce_view(),
            14 | 15 => self.read(),
            16 => self.drop_index(),
            17 => self.maintenance_lag(),
            18 => self.interactive_lag(),
            19 => self.staggered_index(),
            20 | 21 => self.error_counts(),
            22 => self.frontiers(),
            23 => self.subscribe(),
            24 => self.fetch(),
            25 => self.tick(),
            26 | 27 => self.peek(),
            28 => self.named_peek(),
            29 => self.await_peek(),
            30 => self.hold(),
            _ => self.release(),
        }
    }

    /// Ends the scenario with nothing outstanding: every subscribe
    /// fetched a last time and cancelled, time moved up to every named
    /// peek's, and every named peek awaited.
    fn finish(&mut self) {
        for name in std::mem::take(&mut self.subscribes) {
            let text = block(&format!("fetch name={name}"), "") + "\n";
            let text = text + &block(&format!("cancel name={name}"), "");
            self.push(text, vec![], vec![name]);
        }
        let latest = self.peeks.iter().map(|(_, at)| *at).max().unwrap_or(0);
        while self.now < latest {
            self.tick();
        }
        for (name, _) in std::mem::take(&mut self.peeks) {
            self.push(block(&format!("await name={name}"), ""), vec![], vec![name]);
        }
    }

    fn tick(&mut self) {
        self.now += 1;
        self.push(block("tick", ""), vec![], vec![]);
    }

    /// A new view is often indexed at once: errors and joins then live
    /// in arrangements, where sharing and delta joins read them.
    fn maybe_index_last(&mut self) {
        if self.rng.below(2) == 0 {
            let last = self.relations.len() - 1;
            self.index_relation(last);
        }
    }

    fn create_index(&mut self) {
        let i = self.rng.below(self.relations.len());
        self.index_relation(i);
    }

    fn index_relation(&mut self, i: usize) {
        let (text, name, on) = self.index_text(i);
        self.push(text, vec![name], vec![on]);
    }

    /// `CREATE INDEX` on relation `i` (a re-export if it has one already),
    /// as (text, index, relation).
    fn index_text(&mut self, i: usize) -> (String, String, String) {
        let name = self.fresh("i");
        let on = self.relations[i].name.clone();
        let sql = format!("CREATE INDEX {name} ON {on} (k)");
        self.relations[i].indexes.push(name.clone());
        (block("statement", &sql), name, on)
    }

    /// A relation with an index if there is one (a second index on it
    /// re-exports the first), else any relation.
    fn indexed_or_any(&mut self) -> usize {
        let with = self.indexed();
        match with.is_empty() {
            true => self.rng.below(self.relations.len()),
            false => *self.rng.pick(&with),
        }
    }

    /// The positions of the relations that have an index.
    fn indexed(&self) -> Vec<usize> {
        let relations = 0..self.relations.len();
        relations
            .filter(|i| !self.relations[*i].indexes.is_empty())
            .collect()
    }

    /// Every live index.
    fn indexes(&self) -> Vec<String> {
        let each = self
            .relations
            .iter()
            .flat_map(|r| r.indexes.iter().cloned());
        each.collect()
    }

    /// Creates view `name` (whose second column is `value`, and which a
    /// join reads as relation `instead` if it has a join's rows) and,
    /// half the time, an index on it.
    fn add_view(
        &mut self,
        name: String,
        sql: String,
        uses: Vec<String>,
        value: &str,
        instead: Option<usize>,
    ) {
        self.push(block("statement", &sql), vec![name.clone()], uses);
        self.relations.push(Relation {
            name,
            value: value.into(),
            indexes: Vec::new(),
            table: false,
            instead,
        });
        self.maybe_index_last();
    }

    fn error_view(&mut self) {
        let i = self.rng.below(self.relations.len());
        let r = self.relations[i].clone();
        let name = self.fresh("v");
        let c = self.rng.range(1, 12);
        let sql = format!(
            "CREATE VIEW {name} AS SELECT k, {c} / {} AS q FROM {}",
            r.value, r.name
        );
        self.add_view(name, sql, vec![r.name], "q", r.instead);
    }

    /// A join's input, as (relation, its position): two times in three an
    /// indexed relation if there is one, since a join whose every input
    /// is an index is a delta join under `joins: delta`; never one with a
    /// join's rows in it.
    fn join_input(&mut self) -> (Relation, usize) {
        let i = match self.rng.below(3) {
            0 => self.rng.below(self.relations.len()),
            _ => self.indexed_or_any(),
        };
        let i = self.relations[i].instead.unwrap_or(i);
        (self.relations[i].clone(), i)
    }

    fn join_view(&mut self) {
        let (a, first) = self.join_input();
        let (b, _) = self.join_input();
        let name = self.fresh("j");
        let three = self.rng.below(3) == 0;
        let (sql, uses) = if three {
            let (c, _) = self.join_input();
            let sql = format!(
                "CREATE VIEW {name} AS SELECT a.k, a.{} AS x, c.{} AS y FROM {} a JOIN {} b ON a.k = b.k JOIN {} c ON b.k = c.k",
                a.value, c.value, a.name, b.name, c.name
            );
            (sql, vec![a.name, b.name, c.name])
        } else {
            let sql = format!(
                "CREATE VIEW {name} AS SELECT a.k, a.{} AS x, b.{} AS y FROM {} a JOIN {} b ON a.k = b.k",
                a.value, b.value, a.name, b.name
            );
            (sql, vec![a.name, b.name])
        };
        self.add_view(name, sql, uses, "x", Some(first));
    }

    fn reduce_view(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let name = self.fresh("r");
        let sql = format!(
            "CREATE VIEW {name} AS SELECT k, count(*) AS n, sum({}) AS s FROM {} GROUP BY k",
            r.value, r.name
        );
        self.add_view(name, sql, vec![r.name], "n", None);
    }

    /// A read of a random relation, as (text, relation): a fast-path peek
    /// when the relation is indexed and the read is a `SELECT *` (whole,
    /// of one key or in the past), else a transient dataflow importing it.
    fn read_text(&mut self) -> (String, String) {
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

    fn read(&mut self) {
        let (text, relation) = self.read_text();
        self.push(text, vec![], vec![relation]);
    }

    /// A fast-path peek on an index, now or (a third of the time) one or
    /// two times in the past, refused unless something holds it there.
    fn peek(&mut self) {
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
    fn named_peek_text(&mut self, index: &str, at: u64) -> (String, String) {
        let name = self.fresh("p");
        self.peeks.push((name.clone(), at));
        let directive = format!("peek index={index} as-of={at} name={name}");
        (block(&directive, ""), name)
    }

    /// A named peek at now or a time still to come.
    fn named_peek(&mut self) {
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
    fn await_peek(&mut self) {
        let due: Vec<usize> = (0..self.peeks.len())
            .filter(|i| self.peeks[*i].1 <= self.now)
            .collect();
        match (due.is_empty(), self.peeks.is_empty()) {
            (_, true) => self.named_peek(),
            (true, false) => self.tick(),
            (false, false) => {
                let (name, _) = self.peeks.remove(*self.rng.pick(&due));
                let text = block(&format!("await name={name}"), "");
                self.push(text, vec![], vec![name]);
            }
        }
    }

    /// A read hold on an index, at now or the next time.
    fn hold(&mut self) {
        let indexes = self.indexes();
        if indexes.is_empty() {
            return self.create_index();
        }
        let index = self.rng.pick(&indexes).clone();
        let name = self.fresh("h");
        let at = self.now + self.rng.below(2) as u64;
        let directive = format!("hold on={index} at={at} name={name}");
        self.holds.push(name.clone());
        self.push(block(&directive, ""), vec![name], vec![index]);
    }

    fn release(&mut self) {
        if self.holds.is_empty() {
            return self.hold();
        }
        let name = self.holds.remove(self.rng.below(self.holds.len()));
        let text = block(&format!("release name={name}"), "");
        self.push(text, vec![], vec![name]);
    }

    fn drop_index(&mut self) {
        let with = self.indexed();
        if with.is_empty() {
            return self.create_index();
        }
        let r = *self.rng.pick(&with);
        let at = self.rng.below(self.relations[r].indexes.len());
        let index = self.relations[r].indexes.remove(at);
        let text = block("statement", &format!("DROP INDEX {index}"));
        self.push(text, vec![], vec![index]);
    }

    /// Maintenance falls behind a few writes and, half the time, a new
    /// index (a re-export where one exists) with a named peek on it, then
    /// catches up. Nothing is read meanwhile: Solo pauses its one
    /// runtime, sharing only maintenance, so a pending read's diagnosis
    /// differs by design.
    fn maintenance_lag(&mut self) {
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
    fn interactive_lag(&mut self) {
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
    fn staggered_index(&mut self) {
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

    fn error_counts(&mut self) {
        let sql = "SELECT export_id, count FROM mz_compute_error_counts";
        self.push(block("query", sql), vec![], vec![]);
    }

    /// Each index's since and upper, the same on every worker unless one
    /// worker's sharing went wrong.
    fn frontiers(&mut self) {
        let sql = "SELECT DISTINCT export_id, since, upper FROM mz_arrangement_frontiers";
        self.push(block("query", sql), vec![], vec![]);
    }

    fn subscribe(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let name = self.fresh("s");
        let sql = format!("SUBSCRIBE TO (SELECT * FROM {})", r.name);
        let text = block(&format!("subscribe name={name}"), &sql);
        self.push(text, vec![name.clone()], vec![r.name]);
        self.subscribes.push(name);
    }

    fn fetch(&mut self) {
        if self.subscribes.is_empty() {
            return self.subscribe();
        }
        let name = self.rng.pick(&self.subscribes).clone();
        self.push(block(&format!("fetch name={name}"), ""), vec![], vec![name]);
    }
}

/// `steps` without those at `removed` and every step that depends on what
/// they create, so the result is still valid by construction.
pub fn without(steps: &[Step], removed: &[usize]) -> Vec<Step> {
    let mut gone: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let dropped = removed.contains(&i) || step.uses.iter().any(|u| gone.contains(u));
        if dropped {
            gone.extend(step.creates.iter().cloned());
            continue;
        }
        out.push(step.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_bytes() {
        let config = GenConfig::default();
        for seed in 0..50 {
            let a = generate(seed, &config).render(&[]);
            let b = generate(seed, &config).render(&[]);
            assert_eq!(a, b);
        }
        assert_ne!(
            generate(1, &config).render(&[]),
            generate(2, &config).render(&[])
        );
    }

    #[test]
    fn every_generated_file_parses() {
        let config = GenConfig::default();
        for seed in 0..200 {
            let text = generate(seed, &config).render(&[format!("seed {seed}")]);
            let path = std::path::Path::new("gen.dd");
            if let Err(e) = runner::format::Script::parse(path, "gen.dd", &text) {
                panic!("seed {seed}: {e}\n{text}");
            }
        }
    }

    /// Joins of joins multiply rows per key until memory runs out: no
    /// join reads a view with a join's rows in it (a join, or an error
    /// view over one).
    #[test]
    fn no_join_reads_a_join() {
        for seed in 0..300 {
            let mut joined: Vec<String> = Vec::new();
            for step in generate(seed, &GenConfig::default()).steps {
                let Some(sql) = step.text.lines().find(|l| l.starts_with("CREATE VIEW")) else {
                    continue;
                };
                let name = sql.split_whitespace().nth(2).expect("a name").to_string();
                let reads_joined = step.uses.iter().any(|u| joined.contains(u));
                if sql.contains(" JOIN ") {
                    assert!(!reads_joined, "seed {seed}: {sql}");
                    joined.push(name);
                } else if reads_joined && !sql.contains("GROUP BY") {
                    joined.push(name);
                }
            }
        }
    }

    #[test]
    fn removing_a_create_removes_its_dependents() {
        let step = |creates: Option<&str>, uses: &[&str]| Step {
            text: String::new(),
            creates: creates.into_iter().map(String::from).collect(),
            uses: uses.iter().map(|u| u.to_string()).collect(),
        };
        let steps = vec![
            step(Some("t1"), &[]),
            step(Some("v2"), &["t1"]),
            step(None, &["v2"]),
            step(Some("t3"), &[]),
            step(None, &["t3"]),
        ];
        let kept = without(&steps, &[0]);
        assert_eq!(kept, vec![steps[3].clone(), steps[4].clone()]);
    }
}
