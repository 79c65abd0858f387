//! Steps with set operations over the generated relations (since generator
//! version 8): views and reads of `UNION`, `INTERSECT` and `EXCEPT`, with
//! and without `ALL`, of two relations' `k` and value columns (or `k`
//! twice, which repeats a row per row of its key), one time in three
//! nested once more (`(a op b) op c`). The value columns are cast to
//! `bigint` so that every branch has the same types (a view's value column
//! may be an `integer` or a `bigint`, a count's). Each is planned as a
//! concat, a negation and a threshold over imported arrangements under
//! sharing, so multiplicities meet compaction, drops and peeks like every
//! other view; the model predicts them (model/src/body.rs).

use super::state::{block, Generator, Relation};

/// Every set operator, with and without `ALL`.
const OPERATORS: [&str; 6] = [
    "UNION",
    "UNION ALL",
    "INTERSECT",
    "INTERSECT ALL",
    "EXCEPT",
    "EXCEPT ALL",
];

impl Generator {
    /// A join-free relation for a set operation's branch: a relation with
    /// a join's rows is read through its join-free one, as a join reads it.
    fn set_input(&mut self) -> Relation {
        let r = self.rng.pick(&self.relations).clone();
        match r.instead {
            Some(instead) => self.relations[self.position(&instead)].clone(),
            None => r,
        }
    }

    fn set_operator(&mut self) -> &'static str {
        OPERATORS[self.rng.below(OPERATORS.len())]
    }

    /// One branch: `k` and, as `x`, the value column or, one time in three,
    /// `k` again, so that a branch holds a row several times (one per row
    /// of its key), which multiplicities tell apart from once.
    fn branch(&mut self, r: &Relation) -> String {
        let x = match self.rng.below(3) {
            0 => "k",
            _ => &r.value,
        };
        format!("SELECT k, {x}::bigint AS x FROM {}", r.name)
    }

    /// A set operation over two or three relations, as (query, uses): its
    /// columns are `k` and `x` (every branch names them so; the leftmost's
    /// names are the result's).
    fn set_select(&mut self) -> (String, Vec<String>) {
        let (a, b) = (self.set_input(), self.set_input());
        let op = self.set_operator();
        let mut sql = format!("{} {op} {}", self.branch(&a), self.branch(&b));
        let mut uses = vec![a.name, b.name];
        if self.rng.below(3) == 0 {
            let c = self.set_input();
            let outer = self.set_operator();
            let branch = self.branch(&c);
            sql = match self.rng.below(2) {
                0 => format!("({sql}) {outer} {branch}"),
                _ => format!("{branch} {outer} ({sql})"),
            };
            uses.push(c.name);
        }
        (sql, uses)
    }

    /// A view of a set operation, half the time indexed.
    pub fn set_view(&mut self) {
        let (select, uses) = self.set_select();
        let name = self.fresh("u");
        let sql = format!("CREATE VIEW {name} AS {select}");
        self.add_view(name, sql, uses, "x", None);
    }

    /// A read of a set operation: a transient dataflow importing its inputs.
    pub fn set_read(&mut self) {
        let (select, uses) = self.set_select();
        self.push(block("query", &select), vec![], uses);
    }
}
