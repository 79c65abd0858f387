//! Steps with the forms of issue 35's first part over the generated
//! relations: views and reads with subqueries (scalar, `EXISTS`, `IN`,
//! `NOT IN`, `ANY`, `ALL`; correlated on a key or a value column, or not at
//! all) and views of outer joins (`LEFT`, `RIGHT`, `FULL`, with `ON`,
//! `USING` or `NATURAL`). A subquery is decorrelated into a join back on
//! its outer columns (NULL matching NULL) and an outer join into joins and
//! antijoins, both over imported arrangements under sharing, so they meet
//! compaction, drops and peeks like every other view. Generated writes put
//! NULLs in both columns now and then, which the join back must match.

use super::state::{block, Generator, Relation};

impl Generator {
    /// A subquery over relation `b` for an outer row of `a` (aliased `a`
    /// and `b`): an expression of the outer query, and whether it is a
    /// predicate (`WHERE`) or an `int`-or-`bigint` value (select list).
    fn subquery(&mut self, a: &Relation, b: &Relation) -> (String, bool) {
        let (av, bv) = (&a.value, &b.value);
        // Correlated on the key, on the value, or not at all.
        let corr = match self.rng.below(3) {
            0 => " WHERE b.k = a.k".to_string(),
            1 => format!(" WHERE b.k = a.{av}"),
            _ => String::new(),
        };
        let from = format!("FROM {} b{corr}", b.name);
        let cmp = *self.rng.pick(&["=", "<>", "<", ">="]);
        match self.rng.below(8) {
            0 => (format!("(SELECT count(*) {from})"), false),
            1 => (format!("(SELECT max(b.{bv}) {from})"), false),
            // More than one row per outer row is an error, as data.
            2 => (format!("(SELECT b.{bv} {from})"), false),
            3 => (format!("EXISTS (SELECT 1 {from})"), true),
            4 => (format!("NOT EXISTS (SELECT 1 {from})"), true),
            5 => (format!("a.{av} IN (SELECT b.{bv} {from})"), true),
            6 => (format!("a.{av} NOT IN (SELECT b.{bv} {from})"), true),
            _ => {
                let q = *self.rng.pick(&["ANY", "ALL"]);
                (format!("a.{av} {cmp} {q} (SELECT b.{bv} {from})"), true)
            }
        }
    }

    /// A query with a subquery over two relations, as (SELECT, uses):
    /// `k` and a value column `x`, one row per outer row at most.
    fn subquery_select(&mut self) -> (String, Vec<String>) {
        let a = self.rng.pick(&self.relations).clone();
        // The subquery reads a join-free relation, as a join does, so that
        // no view reads a join's rows except through its outer relation
        // (which it keeps one row per row of).
        let b = self.rng.pick(&self.relations).clone();
        let b = match b.instead {
            Some(instead) => self.relations[self.position(&instead)].clone(),
            None => b,
        };
        let (expr, predicate) = self.subquery(&a, &b);
        let sql = match predicate {
            true => format!(
                "SELECT a.k, a.{} AS x FROM {} a WHERE {expr}",
                a.value, a.name
            ),
            false => format!("SELECT a.k, {expr} AS x FROM {} a", a.name),
        };
        (sql, vec![a.name, b.name])
    }

    /// A view with a subquery (read by a join through its outer relation's
    /// join-free relation, as an error view is), half the time indexed.
    pub fn subquery_view(&mut self) {
        let (select, uses) = self.subquery_select();
        let name = self.fresh("q");
        let sql = format!("CREATE VIEW {name} AS {select}");
        let outer = self.position(&uses[0]);
        let instead = self.relations[outer].instead.clone();
        self.add_view(name, sql, uses, "x", instead);
    }

    /// A read with a subquery: a transient dataflow importing both inputs.
    pub fn subquery_read(&mut self) {
        let (select, uses) = self.subquery_select();
        self.push(block("query", &select), vec![], uses);
    }

    /// A view of an outer join of two relations on `k`: `ON`, `USING` or
    /// `NATURAL` (on every column the two share: `k`, and the value column
    /// when both name it alike), `LEFT`, `RIGHT` or `FULL`. A `RIGHT` or
    /// `FULL` join's `k` is NULL for the right side's unmatched rows (`ON`)
    /// or is theirs (`USING`, `NATURAL`).
    pub fn outer_join_view(&mut self) {
        let a = self.join_input();
        let b = self.join_input();
        let kind = *self.rng.pick(&["LEFT", "RIGHT", "FULL"]);
        let name = self.fresh("o");
        let (av, bv) = (&a.value, &b.value);
        let select = match self.rng.below(3) {
            0 => format!(
                "SELECT a.k, a.{av} AS x, b.{bv} AS y FROM {} a {kind} JOIN {} b ON a.k = b.k",
                a.name, b.name
            ),
            1 => format!(
                "SELECT k, a.{av} AS x, b.{bv} AS y FROM {} a {kind} JOIN {} b USING (k)",
                a.name, b.name
            ),
            _ if av == bv => format!(
                "SELECT k, {av} AS x FROM {} a NATURAL {kind} JOIN {} b",
                a.name, b.name
            ),
            _ => format!(
                "SELECT k, {av} AS x, {bv} AS y FROM {} a NATURAL {kind} JOIN {} b",
                a.name, b.name
            ),
        };
        let sql = format!("CREATE VIEW {name} AS {select}");
        let first = a.name.clone();
        self.add_view(name, sql, vec![a.name, b.name], "x", Some(first));
    }
}
