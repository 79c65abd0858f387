//! Directives applied to the model: statements, reads at a time, named
//! peeks and their awaits, holds, compaction, pauses and ticks. A read is
//! claimed only where its answer does not depend on frontiers: nothing
//! paused, at `now`, and no compaction forced past it.

use crate::body::evaluate;
use crate::catalog::{Kind, State};
use crate::parse::{parse, Parsed};
use crate::scalar::Unsupported;
use crate::statement::{apply, dropped_relation, from_names, taint};
use engine::repr::Timestamp;
use engine::Role;
use runner::format::directive::Command;
use sqlparser::ast::Statement;
use std::collections::{BTreeMap, BTreeSet};

/// What a directive must print, or why the model makes no claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    Claim(Vec<String>),
    NoClaim(&'static str),
}

/// A named peek: the index's relation and the peek's time, if claimable.
#[derive(Clone, Debug)]
struct Peek {
    index: String,
    on: String,
    at: Timestamp,
    /// What its await prints, decided when its relation was dropped: the
    /// rows it was answered with before the drop, or the cancellation's
    /// error (`None` while its relation lives).
    settled: Option<Result<Vec<String>, Unsupported>>,
}

/// The model of one engine executing one scenario.
pub struct Model {
    state: State,
    paused: BTreeSet<(bool, Option<usize>)>,
    holds: BTreeSet<String>,
    holds_uncertain: bool,
    /// The largest since `allow-compaction` forced.
    forced_since: Timestamp,
    peeks: BTreeMap<String, Option<Peek>>,
}

impl Default for Model {
    fn default() -> Model {
        Model::new()
    }
}

fn ok() -> Expectation {
    Expectation::Claim(vec!["ok".into()])
}

fn claim(r: Result<Vec<String>, Unsupported>) -> Expectation {
    match r {
        Ok(lines) => Expectation::Claim(lines),
        Err(why) => Expectation::NoClaim(why),
    }
}

/// `ok` for a directive on a whole runtime; one naming a worker fails if the
/// run has fewer workers, which the model does not know.
fn whole_runtime(worker: Option<usize>) -> Expectation {
    match worker {
        None => ok(),
        Some(_) => Expectation::NoClaim("a directive naming a worker the run may not have"),
    }
}

fn role_key(role: Role) -> bool {
    matches!(role, Role::Maintenance)
}

impl Model {
    pub fn new() -> Model {
        Model {
            state: State::new(),
            paused: BTreeSet::new(),
            holds: BTreeSet::new(),
            holds_uncertain: false,
            forced_since: 0,
            peeks: BTreeMap::new(),
        }
    }

    /// What `command` must print (the lines of its output block as the
    /// runner prints them), or no claim. Either way the model's state
    /// follows the command.
    pub fn expect(&mut self, command: &Command) -> Expectation {
        let objects = &self.state.objects;
        let live = |p: &Peek| {
            matches!(
                objects.get(&p.index).map(|o| &o.kind),
                Some(Kind::Index { .. })
            )
        };
        self.state.dropped_index_held = self.peeks.values().flatten().any(|p| !live(p));
        match command {
            Command::Statement { sql } => self.statement(sql),
            // Roles, connections and the system variables are outside the
            // model's grammar, which makes no claim on them either way.
            Command::Connection { .. } => {
                self.lose_track();
                Expectation::NoClaim("connections of other roles are not modelled")
            }
            // A request's implicit transaction is outside the model's grammar.
            Command::Simple { .. } => {
                self.lose_track();
                Expectation::NoClaim("several statements in one request are not modelled")
            }
            Command::Query { sql, sort } => claim(self.query(sql, *sort)),
            Command::Peek { index, as_of } => claim(self.peek(index, *as_of)),
            Command::IssuePeek { index, as_of, name } => {
                let peek = self.issue(index, *as_of);
                self.peeks.insert(name.clone(), peek.as_ref().ok().cloned());
                match peek {
                    Ok(_) => Expectation::Claim(vec!["issued".into()]),
                    Err(why) => Expectation::NoClaim(why),
                }
            }
            Command::Await { name } => claim(self.await_peek(name)),
            Command::Subscribe { .. } => {
                // A subscribe is an export of its own and holds what it reads.
                self.state.subscribed = true;
                Expectation::NoClaim("subscribe is not modelled")
            }
            Command::Fetch { .. } | Command::Cancel { .. } => {
                Expectation::NoClaim("subscribe is not modelled")
            }
            Command::Hold { on, at, name } => {
                let known = matches!(
                    self.state.objects.get(on).map(|o| &o.kind),
                    Some(Kind::Table { .. } | Kind::Index { .. })
                );
                let fresh = self.holds.insert(name.clone());
                if known
                    && fresh
                    && *at >= self.state.now
                    && *at >= self.forced_since
                    && !self.state.time_uncertain
                {
                    ok()
                } else {
                    self.holds_uncertain = true;
                    Expectation::NoClaim("a hold whose since the model does not know")
                }
            }
            Command::Release { name } => {
                if self.holds.remove(name) {
                    ok()
                } else if self.holds_uncertain {
                    Expectation::NoClaim("a release of a hold the model lost track of")
                } else {
                    Expectation::Claim(vec![format!("error: no hold named {name}")])
                }
            }
            Command::AllowCompaction { since, .. } => {
                self.forced_since = self.forced_since.max(*since);
                Expectation::NoClaim("allow-compaction's answer is not modelled")
            }
            Command::Tick => {
                self.state.now += 1;
                ok()
            }
            Command::Pause { role, worker } => {
                self.paused.insert((role_key(*role), *worker));
                whole_runtime(*worker)
            }
            Command::Resume { role, worker } => {
                let r = role_key(*role);
                match worker {
                    None => self.paused.retain(|(p, _)| *p != r),
                    Some(_) => {
                        self.paused.remove(&(r, *worker));
                    }
                }
                whole_runtime(*worker)
            }
            Command::Step { worker, .. } => whole_runtime(*worker),
            // Materialize's dialect only, which the model does not read.
            Command::Reset => Expectation::NoClaim("reset-server is not modelled"),
        }
    }

    /// After a statement the model does not know, it can no longer vouch
    /// for anything.
    fn lose_track(&mut self) {
        self.state.catalog_uncertain = true;
        self.state.time_uncertain = true;
        for o in self.state.objects.values_mut() {
            o.kind = Kind::Unknown;
        }
    }

    fn statement(&mut self, sql: &str) -> Expectation {
        let statements = match parse(sql) {
            Ok(s) => s,
            Err(why) => {
                self.lose_track();
                return Expectation::NoClaim(why);
            }
        };
        for (i, s) in statements.iter().enumerate() {
            let settled = self.settle_peeks_on(dropped_relation(s));
            match apply(&mut self.state, s) {
                Ok(Ok(())) => {
                    for (name, answer) in settled {
                        if let Some(Some(peek)) = self.peeks.get_mut(&name) {
                            peek.settled = Some(answer);
                        }
                    }
                }
                // An error with a hint prints it on a line of its own.
                Ok(Err(e)) => {
                    let printed = format!("error: {e}");
                    return Expectation::Claim(printed.lines().map(String::from).collect());
                }
                Err(why) => {
                    for rest in &statements[i..] {
                        taint(&mut self.state, rest);
                    }
                    return Expectation::NoClaim(why);
                }
            }
        }
        ok()
    }

    /// What the await of each named peek on `relation` prints if the
    /// relation is dropped now, as the real system retires its peeks: a
    /// peek every worker answered (its time come, nothing paused) keeps its
    /// rows; a pending one is cancelled with an error.
    fn settle_peeks_on(
        &self,
        relation: Option<String>,
    ) -> Vec<(String, Result<Vec<String>, Unsupported>)> {
        let Some(relation) = relation else {
            return Vec::new();
        };
        let live = self
            .peeks
            .iter()
            .filter_map(|(name, p)| Some((name, p.as_ref()?)));
        live.filter(|(_, p)| p.on == relation && p.settled.is_none())
            .map(|(name, p)| {
                let answer = if !self.paused.is_empty() {
                    Err("a peek whose relation was dropped while a worker was paused")
                } else if p.at <= self.state.now {
                    self.state.relation_at(&p.on, p.at).map(|r| r.lines())
                } else {
                    Ok(vec![format!(
                        "error: query could not complete because relation \"materialize.public.{relation}\" was dropped"
                    )])
                };
                (name.clone(), answer)
            })
            .collect()
    }

    /// The time a read at `as_of` happens (`Ok(Ok(t))`), the compaction
    /// error that refuses it (`Ok(Err(text))`), or why neither is known.
    /// `reads_a_table`: whether the read's inputs include a table (a read of
    /// constants has no since).
    fn read_time(
        &self,
        as_of: Option<Timestamp>,
        reads_a_table: bool,
    ) -> Result<Result<Timestamp, String>, Unsupported> {
        if !self.paused.is_empty() {
            return Err("a read while a runtime or worker is paused may be pending");
        }
        if as_of.is_some() && self.state.time_uncertain {
            return Err("an AS OF read after a write the model could not follow");
        }
        let now = self.state.now;
        let t = as_of.unwrap_or(now);
        if t > now {
            return Err("a read beyond now is pending");
        }
        if t < self.forced_since {
            return Err("a read below a since allow-compaction forced");
        }
        if t < now && reads_a_table {
            // With nothing holding them back, every since moved to now.
            let held = !self.holds.is_empty()
                || self.holds_uncertain
                || !self.peeks.is_empty()
                || self.state.subscribed;
            if held {
                return Err("a read below now while something holds a since back");
            }
            return Ok(Err(format!(
                "Arrangement compaction frontier ([{now}]) is beyond the time of the attempted read ({t})"
            )));
        }
        Ok(Ok(t))
    }

    fn query(&self, sql: &str, sort: bool) -> Result<Vec<String>, Unsupported> {
        let parsed = parse(sql)?;
        let [Parsed::Statement(stmt, as_of)] = parsed.as_slice() else {
            return Err("a query that is not one SELECT");
        };
        let Statement::Query(q) = &**stmt else {
            return Err("a query that is not a SELECT");
        };
        let names = from_names(q)?;
        let reads_a_table = names.iter().any(|n| self.state.reads_a_table(n));
        let t = match self.read_time(*as_of, reads_a_table)? {
            Ok(t) => t,
            Err(refused) => return Ok(vec![format!("error: {refused}")]),
        };
        let (r, ordered) = evaluate(q, &self.state.catalog_at(t))?;
        if ordered && !sort {
            return Err("an ORDER BY read without sorting");
        }
        if !sort && r.rows.len() > 1 && r.errs.is_empty() {
            return Err("a nosort read's order is the engine's");
        }
        if r.errs.is_empty() {
            return Ok(r.lines());
        }
        // Materialize folds a query that reads no relation to a constant
        // and reports its error with its own text, without `Evaluation
        // error: ` (`FastPathPlan::Constant`, `AdapterError::Eval`).
        if names.is_empty() {
            return Ok(r.lines().into_iter().map(bare_line).collect());
        }
        if !names.iter().any(|n| self.state.objects.contains_key(n)) {
            return Err("an error of a query whose names are not the catalog's");
        }
        Ok(r.lines())
    }

    /// The relation index `name` arranges, or the claimed error.
    fn index(&self, name: &str) -> Result<Result<String, String>, Unsupported> {
        match self.state.objects.get(name).map(|o| &o.kind) {
            Some(Kind::Index { on, .. }) => Ok(Ok(on.clone())),
            None if !self.state.catalog_uncertain => Ok(Err(format!("unknown index '{name}'"))),
            _ => Err("a peek of an index the model does not know"),
        }
    }

    fn peek(&self, index: &str, as_of: Option<Timestamp>) -> Result<Vec<String>, Unsupported> {
        let on = match self.index(index)? {
            Ok(on) => on,
            Err(e) => return Ok(vec![format!("error: {e}")]),
        };
        let t = match self.read_time(as_of, self.state.reads_a_table(&on))? {
            Ok(t) => t,
            Err(refused) => return Ok(vec![format!("error: {refused}")]),
        };
        Ok(self.state.relation_at(&on, t)?.lines())
    }

    fn issue(&self, index: &str, as_of: Option<Timestamp>) -> Result<Peek, Unsupported> {
        let on = self
            .index(index)?
            .map_err(|_| "a peek of an unknown index")?;
        let now = self.state.now;
        let at = as_of.unwrap_or(now);
        // Below now the read may be compacted away; beyond, it waits for time.
        if self.state.time_uncertain || at < now || at < self.forced_since {
            return Err("a peek at a time the model does not vouch for");
        }
        Ok(Peek {
            index: index.to_string(),
            on,
            at,
            settled: None,
        })
    }

    fn await_peek(&mut self, name: &str) -> Result<Vec<String>, Unsupported> {
        let peek = self
            .peeks
            .get(name)
            .ok_or("an await of a peek the model does not know")?
            .clone()
            .ok_or("an await of a peek the model made no claim for")?;
        if let Some(settled) = peek.settled {
            self.peeks.remove(name);
            return settled;
        }
        // A pending await leaves the peek outstanding; an answer ends it.
        if !self.paused.is_empty() {
            return Err("an await while a runtime or worker is paused may be pending");
        }
        if peek.at > self.state.now {
            return Err("an await of a peek beyond now is pending");
        }
        self.peeks.remove(name);
        if !matches!(
            self.state.objects.get(&peek.index).map(|o| &o.kind),
            Some(Kind::Index { .. })
        ) {
            return Err("an await of a peek whose index was dropped");
        }
        Ok(self.state.relation_at(&peek.on, peek.at)?.lines())
    }
}

/// An error line without `Evaluation error: `, as Materialize reports an
/// error it meets folding a constant.
fn bare_line(line: String) -> String {
    match line.strip_prefix("error: Evaluation error: ") {
        Some(what) => format!("error: {what}"),
        None => line,
    }
}
