//! Steps that create what exists: tables and writes to them, indexes (a
//! second one on a relation re-exports the first), and the views that
//! break sharing most (errors, joins, reductions), half of them indexed at
//! once. Their drops are in `drops.rs`.

use super::state::{block, Generator, Relation};

impl Generator {
    pub fn create_table(&mut self) {
        let name = self.fresh("t");
        let sql = format!("CREATE TABLE {name} (k int, v int)");
        self.push(block("statement", &sql), vec![name.clone()], vec![]);
        self.relations.push(Relation {
            name,
            value: "v".into(),
            indexes: Vec::new(),
            table: true,
            instead: None,
            reads: Vec::new(),
            defaulted: false,
        });
    }

    fn values(&mut self) -> String {
        let rows = 1 + self.rng.below(3);
        let keys = self.config.keys;
        let values: Vec<String> = (0..rows)
            .map(|_| {
                let k = self.rng.range(0, keys - 1);
                let v = self.rng.range(-2, 3);
                // One value in ten is NULL (since generator version 6), for
                // the outer joins and the subqueries' join back.
                let null = |rng: &mut super::rng::Rng, x: i64| match rng.below(10) {
                    0 => "NULL".to_string(),
                    _ => x.to_string(),
                };
                let (k, v) = (null(&mut self.rng, k), null(&mut self.rng, v));
                format!("({k}, {v})")
            })
            .collect();
        values.join(", ")
    }

    /// A write statement to a random table, as (block, table).
    pub fn write_text(&mut self) -> (String, String) {
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

    /// A new view is often indexed at once: errors and joins then live
    /// in arrangements, where sharing and delta joins read them.
    fn maybe_index_last(&mut self) {
        if self.rng.below(2) == 0 {
            let last = self.relations.len() - 1;
            self.index_relation(last);
        }
    }

    pub fn create_index(&mut self) {
        let i = self.rng.below(self.relations.len());
        self.index_relation(i);
    }

    fn index_relation(&mut self, i: usize) {
        let (text, name, on) = self.index_text(i);
        self.push(text, vec![name], vec![on]);
    }

    /// `CREATE INDEX` on relation `i` (a re-export if it has one already),
    /// as (text, index, relation). One time in five, the first time for the
    /// relation, `CREATE DEFAULT INDEX`: keyed by every column, named by the
    /// engine `<relation>_primary_idx`, as the real system names it.
    pub fn index_text(&mut self, i: usize) -> (String, String, String) {
        let on = self.relations[i].name.clone();
        let (name, sql) = match !self.relations[i].defaulted && self.rng.below(5) == 0 {
            true => {
                self.relations[i].defaulted = true;
                let name = format!("{on}_primary_idx");
                (name, format!("CREATE DEFAULT INDEX ON {on}"))
            }
            false => {
                let name = self.fresh("i");
                let sql = format!("CREATE INDEX {name} ON {on} (k)");
                (name, sql)
            }
        };
        self.relations[i].indexes.push(name.clone());
        (block("statement", &sql), name, on)
    }

    /// Creates view `name` (whose second column is `value`, and which a
    /// join reads as relation `instead` if it has a join's rows) and,
    /// half the time, an index on it.
    pub fn add_view(
        &mut self,
        name: String,
        sql: String,
        uses: Vec<String>,
        value: &str,
        instead: Option<String>,
    ) {
        self.push(block("statement", &sql), vec![name.clone()], uses.clone());
        self.relations.push(Relation {
            name,
            value: value.into(),
            indexes: Vec::new(),
            table: false,
            instead,
            reads: uses,
            defaulted: false,
        });
        self.maybe_index_last();
    }

    pub fn error_view(&mut self) {
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

    /// A join's input: two times in three an indexed relation if there is
    /// one, since a join whose every input is an index is a delta join
    /// under `joins: delta`; never one with a join's rows in it.
    pub fn join_input(&mut self) -> Relation {
        let i = match self.rng.below(3) {
            0 => self.rng.below(self.relations.len()),
            _ => self.indexed_or_any(),
        };
        match self.relations[i].instead.clone() {
            Some(instead) => self.relations[self.position(&instead)].clone(),
            None => self.relations[i].clone(),
        }
    }

    pub fn join_view(&mut self) {
        let a = self.join_input();
        let b = self.join_input();
        let first = a.name.clone();
        let name = self.fresh("j");
        let three = self.rng.below(3) == 0;
        let (sql, uses) = if three {
            let c = self.join_input();
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

    pub fn reduce_view(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let name = self.fresh("r");
        let sql = format!(
            "CREATE VIEW {name} AS SELECT k, count(*) AS n, sum({}) AS s FROM {} GROUP BY k",
            r.value, r.name
        );
        self.add_view(name, sql, vec![r.name], "n", None);
    }
}
