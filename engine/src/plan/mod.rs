//! The plan language the SQL front end produces and the renderer consumes.
//!
//! Relations are referred to by `GlobalId`; columns by position. A plan is
//! resolved against the catalog once, when planned, so rendering never looks
//! up names; `resolver` says what the planner asks of the catalog.

mod deep;
mod demand;
mod finishing;
mod func;
mod inputs;
mod recursive;
mod resolver;
mod table_func;
mod window;

pub use demand::columns_read;
pub use finishing::{
    compare_rows, datum_order, with_top_k, Finishing, OrderColumn, Ordered, SortKey, Ties,
};
pub use func::{
    ArrayFunc, Bitwise, BytesFunc, FloatFunc, FloatWidth, Func, JsonbFunc, ListFunc, NumericFunc,
    RangeFunc, TextFunc, TrimSide,
};
pub use resolver::{
    current_schema, full_name, minimal_name, path_schemas, search_schemas, system_schema,
    ObjectKind, Path, PathSchema, Resolver, SchemaId, Session, DEFAULT_DATABASE, DEFAULT_SCHEMA,
};
pub use table_func::TableFunc;
pub use window::{Frame, FrameBound, FrameUnits, Window, WindowCall, WindowFunc};

use crate::packed::PackedRow;
use crate::repr::{Column, Datum, GlobalId, Row, ScalarType, Timestamp};

/// Scalar expressions. Evaluation may fail (division by zero); the failure
/// becomes a `DataflowError` in the collection's error stream. Cloned on a
/// stack grown as it needs (`deep`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ScalarExpr {
    Column(usize),
    Literal(Datum),
    Unary(UnaryOp, Box<ScalarExpr>),
    Binary(BinaryOp, Box<ScalarExpr>, Box<ScalarExpr>),
    /// The operand converted to the type (`CAST(x AS t)`, `x::t`, and the
    /// implicit widening of an `integer` next to a `bigint`).
    Cast(ScalarType, Box<ScalarExpr>),
    /// `CASE WHEN c1 THEN r1 WHEN c2 THEN r2 ... ELSE els END`, its arms
    /// side by side (however many, it nests one level) and tried in order:
    /// only the result taken is evaluated, so an error in another is none.
    Case {
        whens: Vec<(ScalarExpr, ScalarExpr)>,
        els: Box<ScalarExpr>,
    },
    /// The OR of its operands side by side, as `x IN (a, b, ...)` plans
    /// (`x = a OR x = b OR ...`): however many, it nests one level.
    Or(Vec<ScalarExpr>),
    /// The first operand that is not NULL, evaluated left to right and no
    /// further (`COALESCE`).
    Coalesce(Vec<ScalarExpr>),
    /// Fails with the evaluation error of this text: the real system's
    /// literal error, which a scalar subquery's second row becomes.
    Error(String),
    /// A scalar function of its arguments, side by side (`upper(x)`,
    /// `concat(a, b, c)`): each function says how it evaluates them.
    Call(Func, Vec<ScalarExpr>),
}

impl ScalarExpr {
    /// The expression with every column `c` read as column `f(c)`.
    pub fn remap_columns(self, f: &dyn Fn(usize) -> usize) -> ScalarExpr {
        match self {
            ScalarExpr::Column(c) => ScalarExpr::Column(f(c)),
            e => e.map_children(&mut |e| e.remap_columns(f)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
    IsNull,
    IsNotNull,
    /// An assignment cast to a column's type (`eval::assign`).
    Assign(ScalarType),
    /// A `char` blank padded to its length, as `LIKE` reads it.
    PadChar(Option<u32>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    /// `text LIKE pattern`: `%` any run, `_` one character, `\\` escapes.
    Like,
    /// `ILIKE`: LIKE ignoring case.
    ILike,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggregateFunc {
    /// `count(*)`: counts rows.
    CountAll,
    /// `count(expr)`: counts non-NULL values.
    Count,
    /// `sum(expr)` of `integer`s: a `bigint`.
    Sum,
    /// `sum(expr)` of `bigint`s: a `numeric`, as Materialize's `SumInt64`
    /// (the exact sum, which no `bigint` overflow can stop).
    SumInt64,
    /// `avg(expr)` of integers: a `numeric` (`eval::average`).
    Avg,
    /// `sum(expr)` of floats, in fixed point (`eval::FloatSum`).
    SumFloat(FloatWidth),
    /// `sum(expr)` of `numeric`s, exact and then rounded to a `numeric`
    /// (`eval::NumericSum`), as Materialize's `SumNumeric`.
    SumNumeric,
    Min,
    Max,
    /// `array_agg(expr)`: every value, NULLs too, each as often as it
    /// occurs, in Materialize's order of its datums (`eval/aggregate.rs`),
    /// or by the aggregate's `order_by` first.
    ArrayAgg,
    /// `string_agg(value, separator)`: the non-NULL values in order, each
    /// after its own row's separator but the first, as Materialize's
    /// `StringAgg` (`eval/ordered.rs`).
    StringAgg,
    /// Materialize's `JsonbAgg` and `JsonbObjectAgg` (`eval/ordered.rs`).
    JsonbAgg,
    JsonbObjectAgg,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Aggregate {
    pub func: AggregateFunc,
    pub expr: ScalarExpr,
    /// Over the group's distinct values only (`count(DISTINCT x)`).
    pub distinct: bool,
    /// An order-sensitive aggregate's further arguments (`string_agg`'s
    /// separator) and the `ORDER BY` in its call, empty for any other.
    pub ordered: Ordered,
}

impl Aggregate {
    /// Whether it reads more than its value (`eval::ordered_aggregate`).
    pub fn is_ordered(&self) -> bool {
        use AggregateFunc::{JsonbAgg as J, JsonbObjectAgg as O, StringAgg as S};
        let Ordered { args, order_by } = &self.ordered;
        matches!(self.func, S | J | O) || !args.is_empty() || !order_by.is_empty()
    }

    /// `func` of `expr`, without further arguments or an ORDER BY.
    pub fn new(func: AggregateFunc, expr: ScalarExpr, distinct: bool) -> Aggregate {
        Aggregate {
            func,
            expr,
            distinct,
            ordered: Ordered::default(),
        }
    }
}

/// A relational plan. Output columns of each node are given in the comments.
/// Cloned on a stack grown as it needs (`deep`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum RelationPlan {
    /// A catalog relation (table or view): its columns.
    Get(GlobalId),
    /// Literal rows.
    Constant { rows: Vec<Row>, arity: usize },
    /// Each input row followed by each row of `func` of the values of
    /// `exprs` over it (Materialize's `FlatMap`): the input's columns, then
    /// the function's. A row whose expressions fail goes to the errors.
    FlatMap {
        input: Box<RelationPlan>,
        func: TableFunc,
        exprs: Vec<ScalarExpr>,
    },
    /// The input's columns followed by one column per expression; each
    /// expression sees the input row extended by the columns before it.
    Map {
        input: Box<RelationPlan>,
        exprs: Vec<ScalarExpr>,
    },
    /// Rows for which every predicate is `true` (NULL and false drop the row).
    Filter {
        input: Box<RelationPlan>,
        predicates: Vec<ScalarExpr>,
    },
    /// The listed input columns, in order.
    Project {
        input: Box<RelationPlan>,
        columns: Vec<usize>,
    },
    /// Inner equi-join: the concatenation of all inputs' columns, restricted
    /// to rows where every column in each equivalence class is equal (and not
    /// NULL). Columns are positions in the concatenated row.
    Join {
        inputs: Vec<RelationPlan>,
        equivalences: Vec<Vec<usize>>,
    },
    /// Group-by key columns followed by one column per aggregate. With an
    /// empty key and no input rows, no row is produced for `count` and
    /// friends either: callers that need the SQL global-aggregate row get it
    /// from `global: true`.
    Reduce {
        input: Box<RelationPlan>,
        group_key: Vec<usize>,
        aggregates: Vec<Aggregate>,
        /// `true` for a global aggregate (no GROUP BY): one row even over an
        /// empty input (count 0, others NULL).
        global: bool,
    },
    /// Removes duplicate rows (SELECT DISTINCT).
    Distinct { input: Box<RelationPlan> },
    /// Two inputs joined on `left_key = right_key`: the left's columns,
    /// then the right's (`arities`). Every pair whose keys are equal, plus
    /// each row of a side `kind` keeps that pairs with none, padded with
    /// NULLs for the other side. Under SQL's `=` a NULL in a key matches
    /// nothing; with `nulls_match` NULL matches NULL (a subquery's results
    /// joining back onto the outer rows they were computed for).
    EquiJoin {
        left: Box<RelationPlan>,
        right: Box<RelationPlan>,
        left_key: Vec<usize>,
        right_key: Vec<usize>,
        arities: (usize, usize),
        kind: JoinKind,
        nulls_match: bool,
    },
    /// The input's rows in `order_by` order, without the first `offset`,
    /// at most `limit` (ORDER BY ... LIMIT ... OFFSET in a view), within
    /// each group of equal `group_key` columns (a correlated subquery's
    /// outer row): a top-k maintained as the input changes. Rows equal
    /// under the order are told apart by the rows' own order, so the
    /// result is deterministic.
    TopK {
        input: Box<RelationPlan>,
        group_key: Vec<usize>,
        order_by: Vec<OrderColumn>,
        limit: Option<usize>,
        offset: usize,
    },
    /// `value` rendered once and read as `Local { id, .. }` anywhere in
    /// `body`: the rows of `body`. A `Local` reads the rows alone, so the
    /// errors are `value`'s once and `body`'s: a relation a decorrelated
    /// subquery reads several times counts each of its errors once.
    Let {
        id: usize,
        value: Box<RelationPlan>,
        body: Box<RelationPlan>,
    },
    /// `WITH MUTUALLY RECURSIVE`: each `ids[i]` bound to `values[i]`, read
    /// as `Local` in every value and in `body`. The bindings start empty and
    /// are evaluated in order, round after round, each seeing this round's
    /// value of the bindings before it and the last round's of the others,
    /// until no binding changes (`render::recursive`); then `body` reads
    /// their final values. Each binding's errors, distinct, count once.
    LetRec {
        ids: Vec<usize>,
        values: Vec<RelationPlan>,
        body: Box<RelationPlan>,
    },
    /// Window functions (`window`): the input's rows, each with its value
    /// of every call, computed by a reduce over each partition.
    Window {
        input: Box<RelationPlan>,
        window: Window,
    },
    /// The rows of the enclosing `Let` named `id`, of `arity` columns.
    Local { id: usize, arity: usize },
    /// The rows of a subquery in FROM, a CTE or a `WITH MUTUALLY RECURSIVE`
    /// binding (`site`), whose `computed` output columns are expressions:
    /// the input as it is. Lowering's demand pass (`demand`) drops it, and
    /// refuses by name a computed column it cannot tell Materialize
    /// computes on the same rows.
    Derived {
        input: Box<RelationPlan>,
        computed: Vec<usize>,
        site: DerivedSite,
    },
    /// Every input's rows and errors (`UNION ALL`); all of one arity.
    Union { inputs: Vec<RelationPlan> },
    /// The input's rows with their counts negated, its errors as they are:
    /// the side a set operation subtracts (`EXCEPT`, `INTERSECT`).
    Negate { input: Box<RelationPlan> },
    /// The input's rows whose net count is positive, that many times, its
    /// errors as they are: what is left of a subtraction (`EXCEPT ALL`).
    Threshold { input: Box<RelationPlan> },
}

/// Where a `Derived` relation is written, which names its refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivedSite {
    Subquery,
    Cte,
    Binding,
}

impl DerivedSite {
    /// The construct refused where a computed column's demand is unsure.
    pub fn refusal(self) -> &'static str {
        match self {
            DerivedSite::Subquery => "a computed column in a subquery in FROM",
            DerivedSite::Cte => "a computed column in a CTE",
            DerivedSite::Binding => "a computed column in a WITH MUTUALLY RECURSIVE binding",
        }
    }
}

/// Which sides of an `EquiJoin` keep their rows that pair with none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
}

impl JoinKind {
    /// Whether the left side's (`false`) or the right side's (`true`)
    /// unpaired rows are kept, padded.
    pub fn keeps(self, right: bool) -> bool {
        match self {
            JoinKind::Inner => false,
            JoinKind::Left => !right,
            JoinKind::Right => right,
            JoinKind::Full => true,
        }
    }
}

/// The real system's error for a row with NULL in a NOT NULL column.
pub fn not_null_violation(columns: &[Column], row: &[Datum]) -> Option<String> {
    columns
        .iter()
        .zip(row)
        .find(|(c, d)| !c.nullable && **d == Datum::Null)
        .map(|(c, _)| {
            format!(
                "null value in column \"{}\" violates not-null constraint",
                c.name
            )
        })
}

/// `SELECT * FROM x [WHERE ...]`: the shape a fast-path peek can serve when
/// `x` has an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimpleSelect {
    pub relation: GlobalId,
    pub predicates: Vec<ScalarExpr>,
}

impl SimpleSelect {
    /// The index key the predicates pin to literals, if they pin every key
    /// column (`k = 5`, of the column's type): the peek then reads only
    /// that key. Exact, because a row whose key differs fails that
    /// conjunct, and a false conjunct beats another one's error. A float
    /// column is never pinned: `-0 = 0` holds in SQL, but they are two keys
    /// (docs/semantics.md, "Floats"), so the peek scans.
    pub fn literal_key(&self, key: &[usize], columns: &[Column]) -> Option<Row> {
        key.iter()
            .map(|column| {
                self.predicates.iter().find_map(|p| match p {
                    ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                        (ScalarExpr::Column(c), ScalarExpr::Literal(d))
                        | (ScalarExpr::Literal(d), ScalarExpr::Column(c))
                            if c == column
                                && d.is_of(columns.get(*c)?.typ)
                                && !columns[*c].typ.is_float() =>
                        {
                            Some(d.clone())
                        }
                        _ => None,
                    },
                    _ => None,
                })
            })
            .collect()
    }
}

/// A planned statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// A table named `name` in `schema`, as views and materialized views.
    CreateTable {
        name: String,
        schema: SchemaId,
        columns: Vec<Column>,
        /// Its keys (`sql::constraints`), the primary key first.
        keys: Vec<Vec<usize>>,
    },
    /// Rows are fully evaluated constants, in the table's column order,
    /// packed as they are planned: a bulk load's rows are never a
    /// `Vec<Datum>` each.
    Insert {
        table: GlobalId,
        rows: Vec<PackedRow>,
    },
    /// `INSERT ... SELECT`: `plan` yields rows in the table's column order;
    /// they are read, then written.
    InsertSelect { table: GlobalId, plan: RelationPlan },
    /// Each assignment replaces a column by an expression over the old row.
    Update {
        table: GlobalId,
        assignments: Vec<(usize, ScalarExpr)>,
        predicates: Vec<ScalarExpr>,
    },
    Delete {
        table: GlobalId,
        predicates: Vec<ScalarExpr>,
    },
    CreateView {
        name: String,
        schema: SchemaId,
        columns: Vec<Column>,
        plan: RelationPlan,
    },
    /// `CREATE [OR REPLACE] MATERIALIZED VIEW`: `replace` is the
    /// materialized view of that name it replaces (`sql::materialized`).
    CreateMaterializedView {
        name: String,
        schema: SchemaId,
        columns: Vec<Column>,
        plan: RelationPlan,
        replace: Option<GlobalId>,
    },
    /// `CREATE DATABASE`: a database and its schema `public`.
    CreateDatabase { name: String },
    /// `CREATE SCHEMA`: a schema in an existing database.
    CreateSchema { database: String, name: String },
    /// `DROP SCHEMA` and `DROP DATABASE`: the schemas (those of the
    /// databases too) with every object in them and what depends on those
    /// (`coordinator::drops`), then the databases.
    DropSchemas {
        schemas: Vec<SchemaId>,
        databases: Vec<String>,
    },
    /// `key` are column positions of `on`, in whose schema it lives. `name`
    /// is already defaulted the
    /// way the real system does (`<relation>_primary_idx`, `<relation>_<cols>_idx`).
    CreateIndex {
        name: String,
        on: GlobalId,
        key: Vec<usize>,
    },
    /// `DROP` of the named objects, in the order named: the coordinator
    /// drops them and what depends on them (`coordinator::drops`).
    Drop { ids: Vec<GlobalId> },
    Select {
        plan: RelationPlan,
        columns: Vec<Column>,
        as_of: Option<Timestamp>,
        finishing: Finishing,
        /// Set when the query has the fast-path shape.
        simple: Option<SimpleSelect>,
    },
    /// `SET`, `RESET`: a session variable, by Materialize's name for it,
    /// to a value as `SHOW` prints it (`None`: its default).
    SetVariable {
        name: &'static str,
        value: Option<String>,
    },
    /// `SHOW name`: one row, the variable's value, in a column named as
    /// the statement names it.
    ShowVariable { name: &'static str, column: String },
    /// A transaction's start or end (`sql::transaction`), which the
    /// coordinator's `transaction` runs.
    Transaction(Transaction),
}

/// The statements that start and end a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transaction {
    /// `BEGIN` or `START TRANSACTION`; `read_only` is the access mode named
    /// last (`Some(true)`: `READ ONLY`), if any.
    Begin { read_only: Option<bool> },
    /// `COMMIT`.
    Commit,
    /// `ROLLBACK` or `ABORT`.
    Rollback,
}

#[cfg(test)]
mod demand_tests;
#[cfg(test)]
mod tests;
