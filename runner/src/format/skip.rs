//! Why a directive's answer may legitimately differ on PostgreSQL: the
//! reasons `skip-postgres=` takes, each reviewed, kept apart from the
//! directives so that the list can grow without crowding their parser.

/// Why a directive's answer legitimately differs on PostgreSQL: the values
/// `skip-postgres=` takes. Each is a difference of the engine's model, not
/// of its correctness, so the list is short and every entry is reviewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// An evaluation error is carried beside the rows as data; PostgreSQL
    /// answers without evaluating it (it filters first), or fails the whole
    /// statement where the engine keeps the error in the relation.
    ErrorsAsData,
    /// Reads an `mz_` relation, which PostgreSQL does not have.
    Introspection,
    /// The engine refuses a read its compaction has made impossible;
    /// PostgreSQL keeps no history to compact.
    Compaction,
    /// The engine reports the read `pending:` (a paused worker, a time no
    /// write has reached); PostgreSQL has no frontiers and answers at once.
    Pending,
    /// The engine refuses an expression nested deeper than the real
    /// system's limit of 512; PostgreSQL's limit lies elsewhere.
    RecursionLimit,
    /// The real system's `numeric` differs from PostgreSQL's: no display
    /// scale (`1.75`, not `1.7500000000000000`), 39 significant digits
    /// in a division, 39 digits and places at most, a precision not
    /// enforced, no infinity; the engine answers as the real system does.
    MzNumeric,
    /// The real system casts a `bigint` to a `boolean`; PostgreSQL refuses.
    MzCast,
    /// The real system refuses an identifier longer than 255 bytes;
    /// PostgreSQL truncates one longer than 63 bytes and goes on.
    MzIdentifierLength,
    /// The real system computes an uncorrelated subquery once, whatever
    /// the outer rows, so its error stands over no outer rows; PostgreSQL
    /// evaluates a subquery only for the rows that reach it.
    MzSubquery,
    /// The real system takes keys only once `unsafe_enable_table_keys` is
    /// on and enforces none; the engine refuses a key without the variable
    /// and a write that repeats one; PostgreSQL takes and enforces keys.
    MzKeys,
    /// The real system keeps a `char` trimmed of all trailing whitespace,
    /// a `bpchar` too; PostgreSQL trims blanks only, and keeps a
    /// `bpchar`'s.
    MzChar,
    /// The real system's floats where PostgreSQL's differ: `real` beside
    /// an integer stays a `real`, `%` of floats, the text of an exponent.
    MzFloat,
    /// The real system keeps `-0` and `0` two keys of a group, a DISTINCT
    /// or a join; PostgreSQL holds them one value.
    MzNegativeZero,
    /// A scalar function or LIKE of the real system answers otherwise than
    /// PostgreSQL's (`replace` with an empty pattern, a strict function's
    /// arguments after a NULL one not evaluated, a LIKE pattern over 8 KiB,
    /// a regular expression's syntax and a literal one's error of a
    /// NULL text, `quote_ident` of a keyword, a bare `"current_timestamp"`
    /// the function even quoted, where a column has the name).
    MzFunction,
    /// The real system types a select list's NULL or string literal as
    /// `text` before a set operation unifies its branches' columns, so
    /// `SELECT 1 UNION SELECT NULL` cannot match them; PostgreSQL
    /// resolves the literal by the other branch.
    MzSetTypes,
    /// A materialized view follows its inputs' writes; PostgreSQL's keeps what its last refresh read.
    MzMaterializedView,
    /// Rows tied under a window's ORDER BY, ordered by the whole row.
    MzWindowTies,
    /// A read's rows where no ORDER BY decides, in the real system's
    /// order of its encoded rows; PostgreSQL hands them out as it reads.
    MzResultOrder,
    /// A minus before a number is part of the literal in the real
    /// system's parser, before a cast: `-1::bool` is `(-1)::bool`.
    MzNegativeLiteral,
    /// A name qualified by the real system's default schema or database,
    /// `public.t` or `materialize.public.t`, where every object lives; the
    /// oracle replays a file in a schema of its own, on a connection to
    /// another database, where such a name names nothing.
    MzNames,
    /// The real system's databases, made and dropped on one connection and
    /// named in `database.schema.item`; the oracle runs no `CREATE
    /// DATABASE` or `DROP DATABASE`, and PostgreSQL names nothing in
    /// another database.
    MzDatabases,
    /// The real system's `date` and `timestamp` where PostgreSQL's differ:
    /// a timestamp's range starts at 4714-12-31 BC, a fraction's seventh
    /// digit rounds half up, `24:00:00` is no time of day, `time` is
    /// named `time`.
    MzDates,
    /// Whether a row reports an error, where the real system's optimizer
    /// rewrites an expression before evaluating it and PostgreSQL does
    /// not: `IS NULL` decomposed, a CASE whose arms equal its ELSE, a
    /// constant view folded whole with its error.
    MzErrors,
    /// The real system's `interval` where PostgreSQL's differs: compared
    /// field by field (`'1 month'` is not `'30 days'`), shown with
    /// `months` (PostgreSQL's `mons`), `timestamp - timestamp` in hours
    /// only, its own text reading and errors.
    MzInterval,
    /// The real system's `WITH MUTUALLY RECURSIVE`, which PostgreSQL's
    /// parser does not know (its own `WITH RECURSIVE` is another form).
    MzRecursive,
    /// The real system's DDL and writes where PostgreSQL's differ: it
    /// refuses a column option `NULL`, a write to a view and a subquery in
    /// an `UPDATE`'s `SET`, takes `CREATE VIEW IF NOT EXISTS`, and holds an
    /// index's name beside tables' and views' (the oracle names
    /// PostgreSQL's indexes apart).
    MzDdl,
    /// Rows tied under a view's or subquery's `ORDER BY ... LIMIT`, the
    /// top-k keeping the first in the real system's order of its rows
    /// (NULL after every value); PostgreSQL keeps any.
    MzTopKTies,
    /// The real system's ranges where PostgreSQL's differ: its reader's
    /// errors (`invalid input syntax for type range: ...`, PostgreSQL's
    /// `malformed range literal`).
    MzRange,
    /// The real system's GROUP BY, which matches an expression to a key by
    /// its text (`t.a + 1` is not the key `a + 1`), where PostgreSQL
    /// compares them once names are resolved; and a GROUP BY name of an
    /// enclosing query's column, which PostgreSQL takes for an alias.
    MzGroupBy,
    /// The real system's unsigned integers (`uint2`, `uint4`, `uint8`),
    /// types PostgreSQL does not have (`type "uint4" does not exist`).
    MzUnsigned,
    /// The real system's session time zone, which takes only the zones
    /// equal to UTC (`invalid value for parameter "TimeZone": "-5"`),
    /// where PostgreSQL takes every zone.
    MzTimeZone,
    /// The real system's `jsonb` where PostgreSQL's differs: its order
    /// (its datums' order, not PostgreSQL's by type and size), its text
    /// as a `text` (compact, numbers reduced: `{"a":2}`, PostgreSQL's
    /// `{"a": 2.0}`), its reader's errors (serde_json's texts), its
    /// `jsonb_pretty` (two spaces, PostgreSQL's four), and its NULLs
    /// where PostgreSQL errs or answers (`-` of a scalar, `||` of two
    /// scalars, `jsonb_array_length` of a non-array).
    MzJsonb,
    /// The real system's arrays where PostgreSQL's differ: their order
    /// (its datums', elements with NULL last, then the number of
    /// dimensions, where PostgreSQL compares dimensions first), its
    /// refusal of a lower bound in an array's text, its error texts
    /// (`number of array elements ...` where sub-arrays differ), and
    /// `array_position` of a NULL, which it never finds.
    MzArray,
    /// The real system's order of an order-sensitive aggregate's values
    /// (`string_agg`) without an `ORDER BY` in its call, and of values tied
    /// under one: its datums' order, NULL last, where PostgreSQL keeps the
    /// order the rows come in.
    MzAggregateOrder,
    /// The real system's `list` type (`LIST[...]`, `int list`, its
    /// subscripts, slices and functions), which PostgreSQL does not have.
    MzList,
    /// The real system's `bytea` where PostgreSQL's differs: `digest` and
    /// `hmac`, which are PostgreSQL's only in the pgcrypto extension; no
    /// `||` of two byteas (a bytea beside a text is cast to its text);
    /// `convert_from` of UTF-8 alone.
    MzBytea,
    /// The real system's roles: a database's own, created by the bootstrap
    /// role with its errors (`role 'a' already exists`, reserved names,
    /// the attributes it refuses); PostgreSQL's are the cluster's, its
    /// errors others.
    MzRoles,
    /// The real system's transactions, which either read at one time or
    /// write at COMMIT: a read in a writing one is its `transaction in
    /// write-only mode`, a write after a read its `transaction in
    /// read-only mode`; a statement it delays to COMMIT or refuses in a
    /// transaction block (DDL, `UPDATE`, `DELETE`), and an isolation level
    /// other than its own, which the engine refuses by name; PostgreSQL's
    /// run every statement as it comes.
    MzTransactions,
    /// The real system's session variables: its names, defaults
    /// (`transaction_isolation`, `search_path`, `cluster`, `database`,
    /// `server_version`), the values it takes and its errors.
    MzVars,
}

impl SkipReason {
    /// Every reason with its spelling, in the order error messages list them.
    pub const ALL: &'static [(SkipReason, &'static str)] = &[
        (SkipReason::ErrorsAsData, "errors-as-data"),
        (SkipReason::Introspection, "introspection"),
        (SkipReason::Compaction, "compaction"),
        (SkipReason::Pending, "pending"),
        (SkipReason::RecursionLimit, "recursion-limit"),
        (SkipReason::MzNumeric, "mz-numeric"),
        (SkipReason::MzCast, "mz-cast"),
        (SkipReason::MzIdentifierLength, "mz-identifier-length"),
        (SkipReason::MzSubquery, "mz-subquery"),
        (SkipReason::MzKeys, "mz-keys"),
        (SkipReason::MzChar, "mz-char"),
        (SkipReason::MzFloat, "mz-float"),
        (SkipReason::MzNegativeZero, "mz-negative-zero"),
        (SkipReason::MzFunction, "mz-function"),
        (SkipReason::MzSetTypes, "mz-set-types"),
        (SkipReason::MzMaterializedView, "mz-materialized-view"),
        (SkipReason::MzWindowTies, "mz-window-ties"),
        (SkipReason::MzResultOrder, "mz-result-order"),
        (SkipReason::MzNegativeLiteral, "mz-negative-literal"),
        (SkipReason::MzNames, "mz-names"),
        (SkipReason::MzDatabases, "mz-databases"),
        (SkipReason::MzDates, "mz-dates"),
        (SkipReason::MzErrors, "mz-errors"),
        (SkipReason::MzInterval, "mz-interval"),
        (SkipReason::MzRecursive, "mz-recursive"),
        (SkipReason::MzDdl, "mz-ddl"),
        (SkipReason::MzTopKTies, "mz-top-k-ties"),
        (SkipReason::MzRange, "mz-range"),
        (SkipReason::MzGroupBy, "mz-group-by"),
        (SkipReason::MzUnsigned, "mz-unsigned"),
        (SkipReason::MzTimeZone, "mz-time-zone"),
        (SkipReason::MzJsonb, "mz-jsonb"),
        (SkipReason::MzArray, "mz-array"),
        (SkipReason::MzAggregateOrder, "mz-aggregate-order"),
        (SkipReason::MzList, "mz-list"),
        (SkipReason::MzBytea, "mz-bytea"),
        (SkipReason::MzRoles, "mz-roles"),
        (SkipReason::MzTransactions, "mz-transactions"),
        (SkipReason::MzVars, "mz-vars"),
    ];

    /// Whether the difference is the real system's over PostgreSQL's (the
    /// engine follows the real system), which the oracle reports apart.
    pub fn is_materialize(self) -> bool {
        // Every such reason is named for the real system, so a new one
        // cannot be left out of the oracle's tally of them.
        self.name().starts_with("mz-")
    }

    /// How `skip-postgres=` spells it.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(r, _)| *r == self)
            .map(|(_, n)| *n)
            .expect("every reason is listed")
    }

    pub fn parse(value: &str) -> Option<SkipReason> {
        Self::ALL.iter().find(|(_, n)| *n == value).map(|(r, _)| *r)
    }
}
