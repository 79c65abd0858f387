//! Steps with the forms of issue 35's later parts over the generated
//! relations (since generator version 7): views and reads calling the
//! scalar functions (`concat` and `concat_ws` over NULLs, `length`,
//! `substr`, `upper`, `reverse`, `strpos`, `replace`, `left`, `btrim`,
//! `repeat`, `abs`, `mod`, `greatest`, `least`, `nullif`) and floats
//! (`real` and `double precision` by casts: arithmetic and its errors,
//! `-0`, a cast back to an integer rounded half to even, comparisons with
//! NaN), and tables of `char(3)` and `varchar(3)` strings with trailing
//! blanks, compared and joined. A view keeps an integer value column, so that the views built on
//! it later (errors, sums, joins) read it as any other; a read shows text
//! and floats. The model predicts every form (model/src/functions.rs,
//! floats.rs).

use super::state::{block, Generator};

impl Generator {
    /// An `integer` expression of a row's `k` and value column `v` through
    /// a function or a float: NULL, an error (`mod` by a zero `k`, a float
    /// divided by one) or a value.
    fn function_value(&mut self, v: &str) -> String {
        let c = self.rng.range(1, 3);
        match self.rng.below(14) {
            0 => format!("length(concat({v}, 'x', k))"),
            1 => format!("length(concat_ws(',', {v}, k))"),
            2 => format!("strpos(concat('a', {v}, 'b'), 'b')"),
            3 => format!("length(substr(concat('hello', {v}), k, {c}))"),
            4 => format!("length(replace(concat({v}, k), '1', 'xy'))"),
            5 => format!("length(left(concat({v}, 'abc'), k - {c}))"),
            6 => format!("abs({v})"),
            7 => format!("mod({v}, k)"),
            8 => format!("greatest(k, {v})"),
            9 => format!("least({v}, k)"),
            10 => format!("nullif({v}, k)"),
            11 => format!("CAST({v}::float8 * 1.5 AS int)"),
            12 => format!("CAST({v}::real / k AS int)"),
            _ => format!("length(btrim(concat(' ', {v}, repeat(' ', k))))"),
        }
    }

    /// A text or float expression of a row, as a read shows it.
    fn function_shown(&mut self, v: &str) -> String {
        match self.rng.below(10) {
            0 => format!("concat({v}, '-', k)"),
            1 => format!("upper(concat('a', {v}))"),
            2 => format!("concat_ws('/', k, {v})"),
            3 => format!("reverse(concat({v}, 'x'))"),
            4 => format!("substr(concat('hello', {v}), k)"),
            5 => format!("{v}::float8 / k"),
            6 => format!("{v}::real * 0.5"),
            7 => "k::float8 * -0".to_string(),
            8 => format!("{v}::float8 - 'Infinity'"),
            _ => format!("{v}::float8 * '1e308'::float8 * 10"),
        }
    }

    /// A condition on a row comparing a float with NaN, which is above
    /// every number and equal to itself.
    fn nan_condition(&mut self, v: &str) -> String {
        match self.rng.below(4) {
            0 => format!("{v}::float8 < 'NaN'"),
            1 => format!("'NaN'::float8 > {v}"),
            2 => format!("{v}::real >= 'NaN'::real"),
            _ => format!("'NaN'::float8 <> {v}::float8 * 0.5"),
        }
    }

    /// A view of a relation with a function's or a float's value column
    /// (read by a join through the relation's join-free one), half the
    /// time indexed.
    pub fn function_view(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let name = self.fresh("f");
        let x = self.function_value(&r.value);
        let filter = match self.rng.below(3) {
            0 => format!(" WHERE {}", self.nan_condition(&r.value)),
            _ => String::new(),
        };
        let sql = format!(
            "CREATE VIEW {name} AS SELECT k, {x} AS x FROM {}{filter}",
            r.name
        );
        self.add_view(name, sql, vec![r.name], "x", r.instead);
    }

    /// A read of a relation showing a function's or a float's value, and
    /// half the time one filtered by a comparison with NaN.
    pub fn function_read(&mut self) {
        let r = self.rng.pick(&self.relations).clone();
        let shown = self.function_shown(&r.value);
        let filter = match self.rng.below(2) {
            0 => format!(" WHERE {}", self.nan_condition(&r.value)),
            _ => String::new(),
        };
        let sql = format!("SELECT k, {shown} FROM {}{filter}", r.name);
        self.push(block("query", &sql), vec![], vec![r.name]);
    }

    /// A string of one to three characters from a small alphabet (blanks
    /// among them), often with up to two trailing blanks more: a `char`
    /// trims them, a `varchar` keeps them, and an assignment cuts the
    /// blanks past the third character.
    fn short_string(&mut self) -> String {
        let letters = 1 + self.rng.below(3);
        let mut s: String = (0..letters)
            .map(|_| *self.rng.pick(&["a", "b", " "]))
            .collect();
        for _ in 0..self.rng.below(3) {
            s.push(' ');
        }
        format!("'{s}'")
    }

    /// A table of a `char(3)` and a `varchar(3)` column (apart from the
    /// relations the other steps use: its columns are strings), written
    /// once, indexed on the `char` half the time, and read: its values
    /// shown (a `char` blank padded), compared with each other and with
    /// literals, and joined `char` to `varchar`.
    pub fn char_table(&mut self) {
        let name = self.fresh("c");
        let mut text = block(
            "statement",
            &format!("CREATE TABLE {name} (k int, c char(3), w varchar(3))"),
        );
        let rows: Vec<String> = (0..1 + self.rng.below(4))
            .map(|k| {
                let (c, w) = (self.short_string(), self.short_string());
                let w = if self.rng.below(8) == 0 {
                    "NULL".into()
                } else {
                    w
                };
                format!("({k}, {c}, {w})")
            })
            .collect();
        let insert = format!("INSERT INTO {name} VALUES {}", rows.join(", "));
        text += &format!("\n{}", block("statement", &insert));
        self.now += 1;
        if self.rng.below(2) == 0 {
            let index = self.fresh("i");
            let sql = format!("CREATE INDEX {index} ON {name} (c)");
            text += &format!("\n{}", block("statement", &sql));
        }
        let lit = self.short_string();
        let read = format!("SELECT k, c, w, c = w, c < w, c = {lit}, w = {lit} FROM {name}");
        text += &format!("\n{}", block("query", &read));
        let join = format!("SELECT a.k, b.k FROM {name} a JOIN {name} b ON a.c = b.w");
        text += &format!("\n{}", block("query", &join));
        self.push(text, vec![name], vec![]);
    }
}
