//! Steps with window functions over the generated relations (since
//! generator version 8): views and reads of `row_number`, `rank`,
//! `dense_rank`, `lag` and `lead` (with offsets), `first_value` and
//! `last_value` (over the default frame), partitioned by `k` or the value
//! column or not at all, and ordered by the other (ascending or
//! descending, NULLs where Materialize puts them). A window is a reduce
//! keyed by the partition, so under sharing its input is an imported
//! arrangement and, in an indexed view, its output one an importer reads.
//! The model predicts `rank` and `dense_rank` always and the others where
//! no two rows of a partition tie (model/src/window.rs).

use super::state::{block, Generator};

impl Generator {
    /// A window function call over relation columns `k` and `v`.
    fn window_call(&mut self, v: &str) -> String {
        let (partition, order) = match self.rng.below(3) {
            0 => ("PARTITION BY k ".to_string(), v.to_string()),
            1 => (format!("PARTITION BY {v} "), "k".to_string()),
            _ => (String::new(), v.to_string()),
        };
        let desc = match self.rng.below(3) {
            0 => " DESC",
            _ => "",
        };
        let over = format!("OVER ({partition}ORDER BY {order}{desc})");
        let offset = 1 + self.rng.below(2);
        let call = match self.rng.below(7) {
            0 => "row_number()".to_string(),
            1 => "rank()".to_string(),
            2 => "dense_rank()".to_string(),
            3 => format!("lag({v}, {offset})"),
            4 => format!("lead({v}, {offset})"),
            5 => format!("first_value({v})"),
            _ => format!("last_value({v})"),
        };
        format!("{call} {over}")
    }

    /// A view of a relation's `k`, its value column and a window function
    /// (`w`), half the time indexed; a join reads it through the
    /// relation's join-free one.
    pub fn window_view(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let name = self.fresh("w");
        let call = self.window_call(&r.value);
        let sql = format!(
            "CREATE VIEW {name} AS SELECT k, {v} AS x, {call} AS w FROM {}",
            r.name,
            v = r.value
        );
        self.add_view(name, sql, vec![r.name], "x", r.instead);
    }

    /// A read of a window function over a relation.
    pub fn window_read(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let call = self.window_call(&r.value);
        let sql = format!("SELECT k, {}, {call} FROM {}", r.value, r.name);
        self.push(block("query", &sql), vec![], vec![r.name]);
    }
}
