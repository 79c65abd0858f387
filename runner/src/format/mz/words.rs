//! Just enough of SQL's lexical structure for the runner to route a
//! foreign record and to follow its names: the words (keywords and
//! identifiers, quoted ones kept as written, unquoted ones folded to lower
//! case as every name is) and `;`, with strings, dollar quotes and comments
//! skipped. The engine parses SQL for real; this only says which statements
//! a record has and which names it mentions.

/// One significant token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A keyword or identifier: unquoted ones lower-cased.
    Word { text: String, quoted: bool },
    /// `;`
    Semicolon,
    /// `.`
    Dot,
    /// `(`
    Open,
    /// Anything else that is not space, a literal or a comment.
    Other,
}

impl Token {
    /// Whether this is the unquoted word `word` (lower case).
    pub fn is(&self, word: &str) -> bool {
        matches!(self, Token::Word { text, quoted: false } if text == word)
    }
}

/// The tokens of `sql`.
pub fn tokens(sql: &str) -> Vec<Token> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let until = |from: usize, end: &[char]| -> usize {
        let mut j = from;
        while j < chars.len() && !chars[j..].starts_with(end) {
            j += 1;
        }
        (j + end.len()).min(chars.len())
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            c if c.is_whitespace() => i += 1,
            '-' if chars.get(i + 1) == Some(&'-') => i = until(i, &['\n']),
            '/' if chars.get(i + 1) == Some(&'*') => i = until(i + 2, &['*', '/']),
            '\'' => i = string_end(&chars, i + 1, false),
            'e' | 'E' if chars.get(i + 1) == Some(&'\'') => i = string_end(&chars, i + 2, true),
            '$' => {
                // `$tag$ ... $tag$`, or a parameter `$1`.
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                let parameter = j > i + 1 && chars[i + 1..j].iter().all(char::is_ascii_digit);
                if chars.get(j) == Some(&'$') && !parameter {
                    let tag: Vec<char> = chars[i..=j].to_vec();
                    i = until(j + 1, &tag);
                } else {
                    out.push(Token::Other);
                    i = j.max(i + 1);
                }
            }
            '"' => {
                let mut text = String::new();
                let mut j = i + 1;
                while j < chars.len() {
                    if chars[j] == '"' {
                        if chars.get(j + 1) == Some(&'"') {
                            text.push('"');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    text.push(chars[j]);
                    j += 1;
                }
                out.push(Token::Word { text, quoted: true });
                i = j + 1;
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut j = i;
                while j < chars.len() && (chars[j].is_alphanumeric() || "_$".contains(chars[j])) {
                    j += 1;
                }
                let text: String = chars[i..j].iter().collect::<String>().to_lowercase();
                out.push(Token::Word {
                    text,
                    quoted: false,
                });
                i = j;
            }
            c if c.is_ascii_digit() => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '.') {
                    i += 1;
                }
            }
            ';' => {
                out.push(Token::Semicolon);
                i += 1;
            }
            '.' => {
                out.push(Token::Dot);
                i += 1;
            }
            '(' => {
                out.push(Token::Open);
                i += 1;
            }
            _ => {
                out.push(Token::Other);
                i += 1;
            }
        }
    }
    out
}

/// Past the end of a string literal whose text starts at `from`.
fn string_end(chars: &[char], from: usize, backslashes: bool) -> usize {
    let mut j = from;
    while j < chars.len() {
        match chars[j] {
            '\\' if backslashes => j += 2,
            '\'' if chars.get(j + 1) == Some(&'\'') => j += 2,
            '\'' => return j + 1,
            _ => j += 1,
        }
    }
    chars.len()
}

/// The statements of `sql`: its tokens split at `;`, empty ones dropped.
pub fn statements(sql: &str) -> Vec<Vec<Token>> {
    tokens(sql)
        .split(|t| *t == Token::Semicolon)
        .filter(|s| !s.is_empty())
        .map(<[Token]>::to_vec)
        .collect()
}

/// The names a statement mentions: every word, as the catalog knows it.
pub fn names(statement: &[Token]) -> impl Iterator<Item = &str> {
    statement.iter().filter_map(|t| match t {
        Token::Word { text, .. } => Some(text.as_str()),
        _ => None,
    })
}

/// Keywords that may stand between `CREATE`/`DROP`/`ALTER` and the name
/// of what they create, drop or change.
const OBJECT_WORDS: &[&str] = &[
    "or",
    "replace",
    "temp",
    "temporary",
    "materialized",
    "default",
    "unique",
    "if",
    "not",
    "exists",
    "table",
    "view",
    "index",
    "source",
    "sink",
    "type",
    "schema",
    "database",
    "cluster",
    "replica",
    "role",
    "user",
    "secret",
    "connection",
    "continual",
    "task",
    "network",
    "policy",
    "function",
    "sequence",
];

/// What a statement creates, drops or writes (`None` for a read or a
/// setting): the names a later record can no longer trust when this
/// statement was not carried out. An unnamed index is named by the
/// relation it indexes followed by `_`, the prefix of its default name.
pub fn targets(statement: &[Token]) -> Vec<String> {
    let Some(first) = statement.first() else {
        return Vec::new();
    };
    // `PREPARE name [(types)] AS <statement>`: what its statement changes.
    if first.is("prepare") {
        return match statement.iter().position(|t| t.is("as")) {
            Some(at) => targets(&statement[at + 1..]),
            None => Vec::new(),
        };
    }
    let last = |(mut parts, _): (Vec<String>, usize)| parts.pop().unwrap_or_default();
    if first.is("create") || first.is("drop") {
        let i = object_start(statement);
        if statement.get(i).is_some_and(|t| t.is("on")) {
            // `CREATE [DEFAULT] INDEX ON t`: its default name starts `t_`.
            return qualified(statement, i + 1)
                .map_or(Vec::new(), |n| vec![format!("{}_", last(n))]);
        }
        let mut out = Vec::new();
        let mut i = i;
        while let Some((mut parts, next)) = qualified(statement, i) {
            out.push(parts.pop().unwrap_or_default());
            if statement.get(next) != Some(&Token::Other) || !first.is("drop") {
                break;
            }
            i = next + 1;
        }
        return out;
    }
    if first.is("alter") {
        return names(statement).map(str::to_string).collect();
    }
    let at = match () {
        _ if first.is("insert") || first.is("delete") || first.is("upsert") => 2,
        _ if first.is("update") || first.is("truncate") || first.is("copy") => 1,
        // A write inside a query (`WITH a AS (INSERT INTO t ... RETURNING
        // ...)`, CockroachDB's `SELECT ... FROM [DELETE FROM t]`).
        _ => {
            let inside = statement.windows(2).enumerate().filter_map(|(i, w)| {
                let into = (w[0].is("insert") || w[0].is("upsert")) && w[1].is("into");
                let from = w[0].is("delete") && w[1].is("from");
                // Not `FOR UPDATE` nor `ON CONFLICT DO UPDATE`.
                let locks = i > 0 && (statement[i - 1].is("for") || statement[i - 1].is("do"));
                match () {
                    _ if into || from => qualified(statement, i + 2),
                    _ if w[0].is("update") && !locks => qualified(statement, i + 1),
                    _ => None,
                }
            });
            return inside.map(last).collect();
        }
    };
    qualified(statement, at).map_or(Vec::new(), |n| vec![last(n)])
}

/// Where the name a `CREATE` or `DROP` creates or drops starts: past the
/// keywords of [`OBJECT_WORDS`] and an `IN CLUSTER c`.
fn object_start(statement: &[Token]) -> usize {
    let mut i = 1;
    loop {
        if statement
            .get(i)
            .is_some_and(|t| OBJECT_WORDS.iter().any(|w| t.is(w)))
        {
            i += 1;
        } else if statement.get(i).is_some_and(|t| t.is("in"))
            && statement.get(i + 1).is_some_and(|t| t.is("cluster"))
        {
            // `CREATE INDEX [name] IN CLUSTER c ON t`
            i += 3;
        } else {
            return i;
        }
    }
}

/// The parts of a possibly qualified name starting at `i` (`db.s.t`), and
/// the index past it.
fn qualified(statement: &[Token], mut i: usize) -> Option<(Vec<String>, usize)> {
    let word = |i: usize| match statement.get(i) {
        Some(Token::Word { text, .. }) => Some(text.clone()),
        _ => None,
    };
    let mut parts = vec![word(i)?];
    while statement.get(i + 1) == Some(&Token::Dot) {
        i += 2;
        parts.push(word(i)?);
    }
    Some((parts, i + 1))
}

/// An object a `CREATE` makes, as far as a `DROP ... CASCADE` of something
/// else would take it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created {
    /// Its name, as [`targets`] gives it (`t_` for an unnamed index on `t`).
    pub name: String,
    /// The schema and database its name is qualified with (`["s"]` for
    /// `s.t`), empty for a name of the default schema.
    pub qualifiers: Vec<String>,
    /// Every name the statement mentions: what the object may depend on.
    pub mentions: Vec<String>,
}

/// What a `CREATE` statement makes, if it is one.
pub fn created(statement: &[Token]) -> Option<Created> {
    if !statement.first()?.is("create") {
        return None;
    }
    let name = targets(statement).into_iter().next()?;
    let i = object_start(statement);
    let qualifiers = match statement.get(i).is_some_and(|t| t.is("on")) {
        true => Vec::new(),
        false => {
            let (mut parts, _) = qualified(statement, i)?;
            parts.pop();
            parts
        }
    };
    let mentions = names(statement).map(str::to_string).collect();
    Some(Created {
        name,
        qualifiers,
        mentions,
    })
}

/// What a `DROP ... CASCADE` takes besides what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Every object that depends on a named one, and on those.
    Dependents,
    /// `DROP SCHEMA|DATABASE x CASCADE`: every object in `x` (an
    /// unqualified name is in `public` of `materialize`), and its dependents.
    Contents,
}

/// What `statement` drops beyond the names it names, if it is a
/// `DROP ... CASCADE` (without `CASCADE` a drop fails rather than take more).
pub fn takes(statement: &[Token]) -> Option<Takes> {
    if !statement.first()?.is("drop") || !statement.iter().any(|t| t.is("cascade")) {
        return None;
    }
    match statement.get(1) {
        Some(t) if t.is("schema") || t.is("database") => Some(Takes::Contents),
        _ => Some(Takes::Dependents),
    }
}

/// How a statement changes the session every later statement runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Session {
    /// A setting that decides where names resolve or statements run, or
    /// what they may do (`SET cluster`, `SET search_path`, `SET ROLE`,
    /// `ALTER SYSTEM SET max_tables`; a role's privileges, granted,
    /// revoked or reassigned, and an object's owner; a comment, which the
    /// `comment` column of every later `SHOW` of its schema shows).
    Setting,
    /// `BEGIN` / `START TRANSACTION`: a transaction's rules from here.
    Begin,
    /// `COMMIT`, `ROLLBACK`, `ABORT`, `END`: they end.
    End,
}

/// Settings of the system that change what later statements see or may do,
/// after `ALTER SYSTEM SET` (a session's `SET` and `RESET` of any variable
/// always count, as `SHOW` shows each: the engine answers the forms
/// Materialize's parser reads, `engine::sql::session`, and refuses the
/// rest, `SET LOCAL` or a value it does not model, after which a record
/// that differs is not judged wrong). The words hide literals, so a
/// refused `SET LOCAL TIME ZONE 'UTC'`, which changes nothing later, counts
/// too: conservative, it can turn a wrong record after it into a cascaded
/// one.
const SETTINGS: &[&str] = &[
    "timezone",
    "time",
    "cluster",
    "cluster_replica",
    "search_path",
    "schema",
    "database",
    "role",
    "authorization",
    "transaction",
    "transaction_isolation",
];

/// How `statement` changes the session, if it does.
pub fn session(statement: &[Token]) -> Option<Session> {
    let word = |i: usize| statement.get(i);
    let is = |i: usize, w: &str| word(i).is_some_and(|t| t.is(w));
    let setting = |i: usize| {
        let i = if is(i, "session") || is(i, "local") {
            i + 1
        } else {
            i
        };
        SETTINGS.iter().any(|s| is(i, s))
            || matches!(word(i), Some(Token::Word { text, .. }) if text.starts_with("max_"))
    };
    match () {
        _ if is(0, "begin") || (is(0, "start") && is(1, "transaction")) => Some(Session::Begin),
        _ if ["commit", "rollback", "abort", "end"]
            .iter()
            .any(|w| is(0, w)) =>
        {
            Some(Session::End)
        }
        // Every variable the engine keeps is shown by `SHOW`, so a refused
        // `SET` or `RESET` of any changes what later records see.
        _ if is(0, "set") || is(0, "reset") => Some(Session::Setting),
        _ if is(0, "grant")
            || is(0, "revoke")
            || (is(0, "comment") && is(1, "on"))
            || ((is(0, "reassign") || is(0, "drop")) && is(1, "owned"))
            || (is(0, "alter") && is(1, "default") && is(2, "privileges"))
            || (is(0, "alter")
                && statement
                    .windows(2)
                    .any(|w| w[0].is("owner") && w[1].is("to"))) =>
        {
            Some(Session::Setting)
        }
        _ if is(0, "alter")
            && is(1, "system")
            && (is(2, "set") || is(2, "reset"))
            && setting(3) =>
        {
            Some(Session::Setting)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(sql: &str) -> Vec<String> {
        names(&tokens(sql)).map(str::to_string).collect()
    }

    #[test]
    fn literals_and_comments_hide_their_words() {
        assert_eq!(
            words("SELECT 'a;b', e'it\\'s', $$x$$, \"Mixed\"\"Case\" -- t\n/* u */ FROM T"),
            ["select", "Mixed\"Case", "from", "t"]
        );
        assert_eq!(statements("SELECT ';'; ; SELECT 2").len(), 2);
        assert_eq!(statements("SELECT $1; SELECT $tag$;$tag$").len(), 2);
    }

    #[test]
    fn targets_of_statements() {
        let t = |sql: &str| targets(&statements(sql)[0]);
        assert_eq!(t("CREATE TABLE IF NOT EXISTS s.T (a int)"), ["t"]);
        assert_eq!(t("CREATE MATERIALIZED VIEW mv AS SELECT 1"), ["mv"]);
        assert_eq!(t("CREATE INDEX i ON t (a)"), ["i"]);
        assert_eq!(t("CREATE DEFAULT INDEX ON t"), ["t_"]);
        assert_eq!(t("CREATE DEFAULT INDEX IN CLUSTER c ON t"), ["t_"]);
        assert_eq!(t("DROP TABLE a, \"B\" CASCADE"), ["a", "B"]);
        assert_eq!(t("INSERT INTO t VALUES (1)"), ["t"]);
        assert_eq!(t("PREPARE i1 AS\nINSERT INTO t(a) VALUES($1)"), ["t"]);
        assert_eq!(t("UPDATE t SET a = 1"), ["t"]);
        assert_eq!(
            t("ALTER TABLE t RENAME TO u"),
            ["alter", "table", "t", "rename", "to", "u"]
        );
        assert!(t("SELECT * FROM t").is_empty());
        // Writes inside a query write their tables too.
        assert_eq!(
            t("WITH a AS (UPDATE u SET a = -a RETURNING a) SELECT * FROM [DELETE FROM s.v]"),
            ["u", "v"]
        );
        assert_eq!(t("SELECT 1 FROM [UPSERT INTO w VALUES (1)]"), ["w"]);
        assert!(t("SELECT * FROM t FOR UPDATE OF t").is_empty());
        let s = |sql: &str| session(&statements(sql)[0]);
        assert_eq!(s("SET cluster = 'bad'"), Some(Session::Setting));
        assert_eq!(s("SET SESSION search_path TO x"), Some(Session::Setting));
        assert_eq!(s("ALTER SYSTEM SET max_tables = 2"), Some(Session::Setting));
        assert_eq!(s("SET TIME ZONE -5"), Some(Session::Setting));
        assert_eq!(s("SET TimeZone = '+00:00'"), Some(Session::Setting));
        assert_eq!(s("SET application_name = 'x'"), Some(Session::Setting));
        assert_eq!(s("RESET extra_float_digits"), Some(Session::Setting));
        assert_eq!(s("ALTER SYSTEM SET enable_x = true"), None);
        let privileges = [
            "GRANT SELECT ON t TO joe",
            "REVOKE r FROM joe",
            "ALTER TABLE t OWNER TO joe",
            "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO joe",
            "REASSIGN OWNED BY a TO b",
        ];
        for sql in privileges {
            assert_eq!(s(sql), Some(Session::Setting), "{sql}");
        }
        assert_eq!(s("COMMENT ON TABLE t IS 'x'"), Some(Session::Setting));
        assert_eq!(s("ALTER TABLE t RENAME TO u"), None);
        assert_eq!(s("BEGIN"), Some(Session::Begin));
        assert_eq!(s("COMMIT"), Some(Session::End));
        assert!(t("SET x = 1").is_empty());
    }

    #[test]
    fn what_a_create_makes_and_a_drop_takes() {
        let c = |sql: &str| created(&statements(sql)[0]);
        let v = c("CREATE VIEW s.v AS SELECT a FROM t").unwrap();
        assert_eq!(
            (v.name.as_str(), v.qualifiers.as_slice()),
            ("v", &["s".to_string()][..])
        );
        assert!(v.mentions.iter().any(|m| m == "t"));
        let i = c("CREATE DEFAULT INDEX ON db.s.t").unwrap();
        assert_eq!((i.name.as_str(), i.qualifiers.len()), ("t_", 0));
        assert_eq!(c("DROP TABLE t"), None);
        let d = |sql: &str| takes(&statements(sql)[0]);
        assert_eq!(d("DROP TABLE t CASCADE"), Some(Takes::Dependents));
        assert_eq!(
            d("DROP SCHEMA IF EXISTS public CASCADE"),
            Some(Takes::Contents)
        );
        assert_eq!(d("DROP DATABASE d CASCADE"), Some(Takes::Contents));
        assert_eq!(d("DROP TABLE t"), None);
        assert_eq!(d("SELECT cascade FROM t"), None);
    }
}
