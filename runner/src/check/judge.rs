//! Judging a foreign file record by record: its own expected results are
//! the claim, and each record the engine answered is agreed or wrong by
//! Materialize's runner's comparison (`format::mz::compare`).
//!
//! A record outside the engine's subset is `unsupported` (the engine
//! refused it as `unsupported: <construct>`, or the runner cannot run or
//! check it) and the file goes on. A record that disagrees is `cascaded`,
//! not wrong, when it names something an earlier unsupported or cascaded
//! statement should have created, dropped or written (its targets: the
//! object a `CREATE`/`DROP` names, every name of an `ALTER`, the table of
//! an `INSERT`/`UPDATE`/`DELETE`/`COPY`, and `t_` for an unnamed index on
//! `t`, whose default name starts so; for a `DROP ... CASCADE` also every
//! object created before that mentions a dropped name, and for
//! `DROP SCHEMA|DATABASE ... CASCADE` every object created in it), or
//! when it is a `DROP` of something such a name was created over (whether
//! the drop is refused, or what its `CASCADE` takes, depends on it): the
//! engine never saw that state, so the disagreement says nothing of its
//! answers. Likewise after an
//! unsupported statement that changes the session (`SET cluster`,
//! `SET search_path`, `SET ROLE`, `ALTER SYSTEM SET max_...`, `GRANT`,
//! `REVOKE`, `ALTER ... OWNER TO`, `COMMENT ON`; a refused `BEGIN`
//! until its `COMMIT` or `ROLLBACK`, itself judged inside it) every
//! disagreeing record is cascaded: it ran in a session the engine never
//! had. A transaction the engine answered but whose end it refused (or
//! whose end disagrees inside a refused session) leaves every name its
//! statements wrote or created as an unsupported statement would.
//! `reset-server` forgets all of that with the rest of the catalog. Only
//! `wrong` records fail the file.

use crate::format::mz::compare::{compare, Match};
use crate::format::mz::layout::{Layout, Record};
use crate::format::mz::words::{Created, Session, Takes};
use crate::format::mz::{refused, words};
use std::collections::BTreeMap;

/// A foreign file's records by verdict, and the constructs that blocked
/// records (refused or cascaded from a refusal), by records blocked.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Judged {
    pub agreed: usize,
    pub unsupported: usize,
    pub cascaded: usize,
    pub wrong: usize,
    pub blocked: BTreeMap<String, usize>,
    /// Each wrong record: `path:line: first line: why`.
    pub wrongs: Vec<String>,
}

impl Judged {
    /// Adds another file's counts.
    pub fn add(&mut self, other: &Judged) {
        self.agreed += other.agreed;
        self.unsupported += other.unsupported;
        self.cascaded += other.cascaded;
        self.wrong += other.wrong;
        for (construct, n) in &other.blocked {
            *self.blocked.entry(construct.clone()).or_default() += n;
        }
    }

    /// `agreed 3, unsupported 1, cascaded 0, wrong 0`
    pub fn counts(&self) -> String {
        format!(
            "agreed {}, unsupported {}, cascaded {}, wrong {}",
            self.agreed, self.unsupported, self.cascaded, self.wrong
        )
    }
}

/// Judges every record of `layout` by `outputs` (one per block, as the
/// runs agreed on them; `None` where no run ran the block); `shown` names
/// the file in the list of wrong records.
pub fn judge(layout: &Layout, outputs: &[Option<Vec<String>>], shown: &str) -> Judged {
    let mut block_of = vec![None; layout.records.len()];
    for (block, &record) in layout.blocks.iter().enumerate() {
        block_of[record] = Some(block);
    }
    let mut judged = Judged::default();
    // Names an unsupported statement should have changed, with the
    // construct that blocked it.
    let mut tainted: BTreeMap<String, String> = BTreeMap::new();
    // The construct of an unsupported change of the session, and whether
    // it was a transaction's start (which its end undoes).
    let mut session: Option<(String, bool)> = None;
    // Every object a record created, or tried to: what a refused
    // `DROP ... CASCADE` would have taken with it.
    let mut created: Vec<Created> = Vec::new();
    // What the statements of the open transaction wrote or created, since
    // its `BEGIN`: its end, refused or disagreeing, leaves them as the
    // engine never had them.
    let mut in_transaction: Option<Vec<String>> = None;
    for (r, written) in layout.records.iter().enumerate() {
        let verdict = match (&written.record, refused(written), block_of[r]) {
            (Record::HashThreshold, ..) => continue,
            (Record::ResetServer, ..) => {
                tainted.clear();
                created.clear();
                session = None;
                continue;
            }
            (_, Some(construct), _) => Match::Unsupported(construct.to_string()),
            (_, None, Some(block)) => match &outputs[block] {
                Some(lines) => compare(written, lines),
                None => continue,
            },
            (_, None, None) => continue,
        };
        let sql = sql_of(&written.record);
        let statements = match &written.record {
            // `copy t path` writes `t`: read as the statement that does.
            Record::Copy { table, .. } => words::statements(&format!("copy {table}")),
            _ => words::statements(sql),
        };
        created.extend(statements.iter().filter_map(|s| words::created(s)));
        // What a statement writes or creates from a name the engine never
        // had right holds what the engine could not have computed either,
        // whatever the statement's own verdict: `INSERT INTO u SELECT * FROM
        // t` after a refused write of `t`, or a view over `t`.
        if let Some(construct) = cascade(&tainted, sql) {
            for name in statements.iter().flat_map(|s| words::targets(s)) {
                tainted.entry(name).or_insert_with(|| construct.clone());
            }
        }
        // The end of a transaction the engine never had ends the session
        // change after its own verdict: a `COMMIT` that disagrees (it
        // would have failed, as Materialize's did) is cascaded too.
        let change = statements.first().and_then(|s| words::session(s));
        let ends = change == Some(Session::End) && session.as_ref().is_some_and(|(_, b)| *b);
        let mut transaction_ends = false;
        for statement in &statements {
            match words::session(statement) {
                Some(Session::Begin) => {
                    in_transaction.get_or_insert_with(Vec::new);
                }
                Some(Session::End) => transaction_ends = true,
                _ => {
                    if let Some(names) = in_transaction.as_mut() {
                        names.extend(words::targets(statement));
                    }
                }
            }
        }
        let ended = transaction_ends.then(|| in_transaction.take()).flatten();
        let blocker = match verdict {
            Match::Agrees => {
                judged.agreed += 1;
                if ends {
                    session = None;
                }
                continue;
            }
            Match::Unsupported(construct) => {
                judged.unsupported += 1;
                construct
            }
            Match::Differs(why) => match cascade(&tainted, sql)
                .or_else(|| dependents(&tainted, &created, &statements))
                .or_else(|| session.as_ref().map(|(construct, _)| construct.clone()))
            {
                Some(construct) => {
                    judged.cascaded += 1;
                    construct
                }
                None => {
                    judged.wrong += 1;
                    judged
                        .wrongs
                        .push(format!("{shown}:{}: {}: {why}", written.line, written.head));
                    continue;
                }
            },
        };
        if ends {
            session = None;
        }
        for name in ended.into_iter().flatten() {
            tainted.entry(name).or_insert_with(|| blocker.clone());
        }
        *judged.blocked.entry(blocker.clone()).or_default() += 1;
        // Every statement of a blocked record may change the session (a
        // `simple` record of `ROLLBACK; BEGIN; ...` starts a transaction).
        for change in statements.iter().filter_map(|s| words::session(s)) {
            match change {
                Session::Setting => session = Some((blocker.clone(), false)),
                Session::Begin => session = Some((blocker.clone(), true)),
                Session::End if session.as_ref().is_some_and(|(_, begun)| *begun) => session = None,
                Session::End => {}
            }
        }
        for statement in &statements {
            let mut names = words::targets(statement);
            if let Some(takes) = words::takes(statement) {
                names = taken(&created, names, takes);
            }
            for name in names {
                tainted.entry(name).or_insert_with(|| blocker.clone());
            }
        }
    }
    judged
}

/// The names a refused `DROP ... CASCADE` of `dropped` should have taken:
/// them, what `takes` adds, and every object created so far that mentions
/// one of those, until nothing more is added (the judge cannot know
/// dependencies better than by the names a `CREATE` mentions).
fn taken(created: &[Created], mut dropped: Vec<String>, takes: Takes) -> Vec<String> {
    if takes == Takes::Contents {
        let default = |c: &Created| {
            c.qualifiers.is_empty() && dropped.iter().any(|d| d == "public" || d == "materialize")
        };
        let inside = created
            .iter()
            .filter(|c| default(c) || c.qualifiers.iter().any(|q| dropped.contains(q)));
        let inside: Vec<String> = inside.map(|c| c.name.clone()).collect();
        dropped.extend(inside);
    }
    loop {
        let more: Vec<String> = created
            .iter()
            .filter(|c| !dropped.contains(&c.name))
            .filter(|c| c.mentions.iter().any(|m| dropped.contains(m)))
            .map(|c| c.name.clone())
            .collect();
        if more.is_empty() {
            return dropped;
        }
        dropped.extend(more);
    }
}

/// The construct that blocked a dependent of what a `DROP` among
/// `statements` drops: whether that drop is refused (`still depended upon`)
/// or takes more with `CASCADE` depends on objects the engine never had
/// right, such as a view over `t` whose `CREATE` was refused, or one whose
/// refused `DROP` left it in place.
fn dependents(
    tainted: &BTreeMap<String, String>,
    created: &[Created],
    statements: &[Vec<words::Token>],
) -> Option<String> {
    let drops = statements
        .iter()
        .filter(|s| s.first().is_some_and(|t| t.is("drop")));
    let dropped: Vec<String> = drops.flat_map(|s| words::targets(s)).collect();
    created
        .iter()
        .filter(|c| !dropped.contains(&c.name))
        .filter(|c| c.mentions.iter().any(|m| dropped.contains(m)))
        .find_map(|c| tainted.get(&c.name).cloned())
}

fn sql_of(record: &Record) -> &str {
    match record {
        Record::Statement { sql, .. } | Record::Query { sql, .. } | Record::Simple { sql, .. } => {
            sql
        }
        Record::Copy { table, .. } => table,
        _ => "",
    }
}

/// The construct that blocked a name `sql` mentions, if it mentions one.
fn cascade(tainted: &BTreeMap<String, String>, sql: &str) -> Option<String> {
    let tokens = words::tokens(sql);
    let found = words::names(&tokens).find_map(|name| {
        tainted.get(name).cloned().or_else(|| {
            tainted
                .iter()
                .find(|(t, _)| t.ends_with('_') && name.starts_with(t.as_str()))
                .map(|(_, c)| c.clone())
        })
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::mz::parse_script;
    use crate::format::Format;

    fn layout(text: &str) -> Layout {
        match parse_script("f.slt", text).unwrap().format {
            Format::Materialize(layout) => layout,
            _ => unreachable!(),
        }
    }

    fn outputs(lines: &[&[&str]]) -> Vec<Option<Vec<String>>> {
        lines
            .iter()
            .map(|l| Some(l.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    const FILE: &str = "statement ok\nCREATE TABLE t (a numeric)\n\n\
        statement ok\nINSERT INTO t VALUES (1)\n\n\
        query I\nSELECT a FROM t\n----\n1\n\n\
        statement ok\nCREATE TABLE u (a int)\n\n\
        query I\nSELECT a FROM u\n----\n2\n\n\
        query I\nSELECT 1\n----\n1\n\n\
        copy v v.data\n";

    #[test]
    fn refusals_cascade_to_the_names_they_leave_behind() {
        let l = layout(FILE);
        assert_eq!(l.blocks.len(), 6, "copy has no block");
        let j = judge(
            &l,
            &outputs(&[
                &["error: unsupported: type numeric: in t"],
                &["error: unknown catalog item 't'"],
                &["error: unknown catalog item 't'"],
                &["ok"],
                &[],
                &["1"],
            ]),
            "f.slt",
        );
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (2, 2, 2, 1));
        assert_eq!(j.blocked["type numeric"], 3);
        assert_eq!(j.blocked["copy"], 1);
        assert_eq!(j.wrongs.len(), 1);
        assert!(
            j.wrongs[0].starts_with("f.slt:15: query I: "),
            "{:?}",
            j.wrongs
        );
    }

    #[test]
    fn a_refused_copy_cascades_to_its_table() {
        let text = "statement ok\nCREATE TABLE w (a int)\n\n\
                    copy w w.data\n\n\
                    query I\nSELECT count(*) FROM (SELECT a FROM w) AS s\n----\n100\n";
        let l = layout(text);
        let j = judge(&l, &outputs(&[&["ok"], &["0"]]), "f.slt");
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (1, 1, 1, 0));
        assert_eq!(j.blocked["copy"], 2);
    }

    #[test]
    fn what_is_written_from_a_tainted_name_is_tainted() {
        let text = "statement ok\nINSERT INTO t VALUES ((SELECT 7))\n\n\
                    statement ok\nINSERT INTO u SELECT * FROM t\n\n\
                    statement ok\nCREATE VIEW v AS SELECT * FROM u\n\n\
                    query I\nSELECT * FROM v\n----\n7\n\n\
                    query I\nSELECT * FROM w\n----\n7\n";
        let l = layout(text);
        let j = judge(
            &l,
            &outputs(&[
                &["error: unsupported: subquery in VALUES"],
                &["ok"],
                &["ok"],
                &[],
                &[],
            ]),
            "f.slt",
        );
        // The read of `v` cascades through `u`; `w` was never written from
        // `t`, so its read is wrong.
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (2, 1, 1, 1));
        assert_eq!(j.blocked["subquery in VALUES"], 2);
    }

    #[test]
    fn an_unsupported_session_change_cascades_until_it_ends() {
        let text = "statement ok\nSET cluster = 'bad'\n\n\
                    statement error unknown cluster\nSELECT 1\n\n\
                    statement ok\nBEGIN\n\n\
                    statement ok\nCOMMIT\n";
        let l = layout(text);
        let j = judge(
            &l,
            &outputs(&[
                &["error: unsupported: statement set variable"],
                &["ok"],
                &["error: unsupported: statement start transaction"],
                &["error: unsupported: statement commit"],
            ]),
            "f.slt",
        );
        assert_eq!((j.unsupported, j.cascaded, j.wrong), (3, 1, 0));
        assert_eq!(j.blocked["statement set variable"], 2);
    }

    #[test]
    fn a_transaction_begun_inside_a_refused_record_cascades() {
        let text = "simple\nROLLBACK;\nBEGIN;\nSELECT f();\n----\nCOMPLETE 0\n\n\
                    query error not allowed\nSELECT 1\n\n\
                    statement ok\nROLLBACK\n\n\
                    query error not allowed\nSELECT 1\n";
        let l = layout(text);
        let refused = "db error: ERROR: unsupported: function f";
        let j = judge(
            &l,
            &outputs(&[&[refused], &["1"], &["ok"], &["1"]]),
            "f.slt",
        );
        assert_eq!((j.unsupported, j.cascaded, j.agreed, j.wrong), (1, 1, 1, 1));
        assert_eq!(j.blocked["function f"], 2);
    }

    #[test]
    fn the_commit_of_a_refused_transaction_is_judged_inside_it() {
        let text = "statement ok\nBEGIN\n\n\
                    statement ok\nINSERT INTO t VALUES (1)\n\n\
                    statement ok\nUPDATE u SET a = 2\n\n\
                    statement ok\nCOMMIT\n\n\
                    query I\nSELECT a FROM t\n----\n1\n\n\
                    query I\nSELECT a FROM v\n----\n1\n";
        let l = layout(text);
        let refused = "error: unsupported: UPDATE in a transaction";
        let commit = "error: unsupported: COMMIT of a transaction with a refused statement";
        let outputs = outputs(&[&["ok"], &["ok"], &[refused], &[commit], &[], &[]]);
        let j = judge(&l, &outputs, "f.slt");
        // The refused COMMIT leaves `t`, written in its transaction, as the
        // engine never had it; `v` was not.
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (2, 2, 1, 1));
        assert!(j.wrongs[0].starts_with("f.slt:18: "), "{:?}", j.wrongs);
    }

    #[test]
    fn a_refused_drop_cascade_taints_what_it_would_have_taken() {
        let text = "statement ok\nCREATE TABLE t (a int)\n\n\
                    statement ok\nCREATE VIEW v AS SELECT a FROM t\n\n\
                    statement ok\nCREATE VIEW w AS SELECT * FROM v\n\n\
                    statement ok\nCREATE TABLE u (a int)\n\n\
                    statement ok\nDROP TABLE t CASCADE\n\n\
                    statement ok\nCREATE VIEW w AS SELECT 1\n\n\
                    statement ok\nCREATE TABLE u (b int)\n\n\
                    statement ok\nDROP SCHEMA public CASCADE\n\n\
                    statement ok\nCREATE TABLE u (b int)\n";
        let l = layout(text);
        let exists = "error: catalog item 'x' already exists";
        let j = judge(
            &l,
            &outputs(&[
                &["ok"],
                &["ok"],
                &["ok"],
                &["ok"],
                &["error: unsupported: DROP ... CASCADE"],
                &[exists],
                &[exists],
                &["error: unsupported: DROP SCHEMA"],
                &[exists],
            ]),
            "f.slt",
        );
        // `w` reads `v`, which reads `t`: taken; `u` is not, until its
        // schema is dropped.
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (4, 2, 2, 1));
        assert!(j.wrongs[0].starts_with("f.slt:19: "), "{:?}", j.wrongs);
        assert_eq!(j.blocked["DROP ... CASCADE"], 2);
        assert_eq!(j.blocked["DROP SCHEMA"], 2);
    }

    #[test]
    fn a_drop_under_a_refused_dependent_cascades() {
        let text = "statement ok\nCREATE TABLE t (a int)\n\n\
                    statement ok\nCREATE TEMP VIEW v AS SELECT a FROM t\n\n\
                    statement error still depended upon\nDROP TABLE t\n\n\
                    statement ok\nCREATE TABLE u (a int)\n\n\
                    statement ok\nCREATE VIEW w AS SELECT a FROM u\n\n\
                    statement ok\nDROP VIEW w\n\n\
                    statement ok\nDROP TABLE u\n\n\
                    statement error still depended upon\nDROP TABLE u\n";
        let l = layout(text);
        let j = judge(
            &l,
            &outputs(&[
                &["ok"],
                &["error: unsupported: temporary objects"],
                &["ok"],
                &["ok"],
                &["ok"],
                &["error: unsupported: DROP VIEW"],
                &["error: cannot drop table \"u\": still depended upon by view \"w\""],
                &["ok"],
            ]),
            "f.slt",
        );
        // The drop of `t` would have met `v`, and the first of `u` found `w`
        // gone; once that drop is cascaded, `u` itself is tainted.
        assert_eq!((j.agreed, j.unsupported, j.cascaded, j.wrong), (3, 2, 3, 0));
        assert_eq!(j.blocked["temporary objects"], 2);
        assert_eq!(j.blocked["DROP VIEW"], 3);
    }

    #[test]
    fn reset_server_forgets_what_was_refused() {
        let text = "statement ok\nCREATE TABLE t (a numeric)\n\nreset-server\n\n\
                    query I\nSELECT a FROM t\n----\n1\n";
        let l = layout(text);
        let j = judge(
            &l,
            &outputs(&[
                &["error: unsupported: type numeric"],
                &["ok"],
                &["error: unknown catalog item 't'"],
            ]),
            "f.slt",
        );
        assert_eq!((j.unsupported, j.cascaded, j.wrong), (1, 0, 1));
    }
}
