//! The generator's promises: the same seed gives the same bytes, every
//! generated file parses, no join reads a join's rows, dropping a step
//! drops what depends on it, every kind of relation is dropped under every
//! kind of live read, the tally counts every kind it generated, and every
//! kind is generated but those withheld.

use std::collections::BTreeMap;

use super::draw::generate;
use super::scenario::{without, GenConfig, Step};

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let config = GenConfig::default();
    for seed in 0..50 {
        let a = generate(seed, &config).render(&[]);
        let b = generate(seed, &config).render(&[]);
        assert_eq!(a, b);
    }
    assert_ne!(
        generate(1, &config).render(&[]),
        generate(2, &config).render(&[])
    );
}

#[test]
fn every_generated_file_parses() {
    let config = GenConfig::default();
    for seed in 0..200 {
        let text = generate(seed, &config).render(&[format!("seed {seed}")]);
        let path = std::path::Path::new("gen.dd");
        if let Err(e) = runner::format::Script::parse(path, "gen.dd", &text) {
            panic!("seed {seed}: {e}\n{text}");
        }
    }
}

/// Joins of joins multiply rows per key until memory runs out: no
/// join reads a view with a join's rows in it (a join, or an error
/// view over one).
#[test]
fn no_join_reads_a_join() {
    for seed in 0..300 {
        let mut joined: Vec<String> = Vec::new();
        for step in generate(seed, &GenConfig::default()).steps {
            let Some(sql) = step.text.lines().find(|l| l.starts_with("CREATE VIEW")) else {
                continue;
            };
            let name = sql.split_whitespace().nth(2).expect("a name").to_string();
            // A subquery's view keeps its outer relation's rows (its first
            // use); its subquery reads a join-free relation.
            let uses = match sql.contains("(SELECT") {
                true => &step.uses[..1],
                false => &step.uses[..],
            };
            let reads_joined = uses.iter().any(|u| joined.contains(u));
            if sql.contains(" JOIN ") {
                assert!(!reads_joined, "seed {seed}: {sql}");
                joined.push(name);
            } else if reads_joined && !sql.contains("GROUP BY") {
                joined.push(name);
            }
        }
    }
}

#[test]
fn removing_a_create_removes_its_dependents() {
    let step = |creates: Option<&str>, uses: &[&str]| Step {
        text: String::new(),
        creates: creates.into_iter().map(String::from).collect(),
        uses: uses.iter().map(|u| u.to_string()).collect(),
    };
    let steps = vec![
        step(Some("t1"), &[]),
        step(Some("v2"), &["t1"]),
        step(None, &["v2"]),
        step(Some("t3"), &[]),
        step(None, &["t3"]),
    ];
    let kept = without(&steps, &[0]);
    assert_eq!(kept, vec![steps[3].clone(), steps[4].clone()]);
}

/// The tally prints every kind, zeros included, and reads back what it
/// prints, as a `--jobs` parent reads its jobs' tallies.
#[test]
fn the_tally_counts_every_kind_and_reads_back() {
    use super::tally::Tally;
    let step = |text: &str| Step {
        text: text.into(),
        creates: vec![],
        uses: vec![],
    };
    let scenario = super::scenario::Scenario {
        seed: 0,
        steps: vec![
            step("statement\nCREATE TABLE t (k int); DROP TABLE t\n----\n"),
            step("statement\nCREATE DEFAULT INDEX ON t\n----\n"),
            step("query\nSELECT * FROM t\n----\n"),
            step("peek index=i name=p\n----\n"),
        ],
    };
    let mut tally = Tally::default();
    tally.add(&scenario);
    let line = tally.to_string();
    for counted in [
        "directives statement 2,",
        "peek 0, peek name= 1,",
        "step 0;",
        "CREATE TABLE 1,",
        "CREATE DEFAULT INDEX 1,",
        "DROP TABLE 1,",
        "DROP VIEW 0,",
        "SELECT 1, other 0",
    ] {
        assert!(line.contains(counted), "{counted} in {line}");
    }
    assert_eq!(Tally::parse(&line), Some(tally.clone()));
    let mut twice = tally.clone();
    twice.merge(&tally);
    assert!(twice.to_string().contains("DROP TABLE 2,"), "{twice}");
    assert_eq!(Tally::parse("explored 3 scenarios"), None);
}

/// Which live reads each generated drop was under, read from the files
/// themselves: (drop kind, reader kind) -> how often.
fn drops_under_reads(seeds: std::ops::Range<u64>) -> BTreeMap<(String, &'static str), usize> {
    use runner::format::directive::Command;
    let mut seen = BTreeMap::new();
    for seed in seeds {
        let text = generate(seed, &GenConfig::default()).render(&[]);
        let path = std::path::Path::new("gen.dd");
        let script = runner::format::Script::parse(path, "gen.dd", &text).expect("it parses");
        // relation -> (its indexes, what a view reads); readers -> what they name.
        let mut relations: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
        let mut subscribes: BTreeMap<String, String> = BTreeMap::new();
        let mut peeks: BTreeMap<String, String> = BTreeMap::new();
        let mut holds: BTreeMap<String, String> = BTreeMap::new();
        for block in &script.blocks {
            match &block.directive.command {
                Command::Statement { sql } => {
                    let words: Vec<&str> = sql.split_whitespace().collect();
                    match words.as_slice() {
                        ["CREATE", "TABLE", name, ..] => {
                            relations.insert(name.to_string(), Default::default());
                        }
                        ["CREATE", "VIEW", name, ..] => {
                            let after = |w: &[&str]| matches!(w[0], "FROM" | "JOIN");
                            let reads = words.windows(2).filter(|w| after(w));
                            let reads = reads.map(|w| w[1].to_string()).collect();
                            relations.insert(name.to_string(), (Vec::new(), reads));
                        }
                        ["CREATE", "INDEX", name, "ON", on, ..] => {
                            let on = relations.get_mut(*on).expect("a live relation");
                            on.0.push(name.to_string());
                        }
                        ["DROP", "INDEX", index] => {
                            let read = |r: &(Vec<String>, Vec<String>)| {
                                r.0.first() == Some(&index.to_string())
                            };
                            let subscribed = subscribes.values().any(|on| read(&relations[on]));
                            for (reader, under) in [
                                ("subscribe", subscribed),
                                ("named peek", peeks.values().any(|i| i == index)),
                                ("hold", holds.values().any(|i| i == index)),
                            ] {
                                if under {
                                    *seen.entry(("DROP INDEX".into(), reader)).or_default() += 1;
                                }
                            }
                            for r in relations.values_mut() {
                                r.0.retain(|i| i != index);
                            }
                        }
                        ["DROP", kind, name] => {
                            if relations.values().any(|r| r.1.iter().any(|n| n == name)) {
                                continue; // refused: a view reads it
                            }
                            let (indexes, _) = relations.remove(*name).expect("a live relation");
                            for (reader, under) in [
                                ("subscribe", subscribes.values().any(|on| on == name)),
                                ("named peek", peeks.values().any(|i| indexes.contains(i))),
                                ("hold", holds.values().any(|i| indexes.contains(i))),
                            ] {
                                if under {
                                    *seen.entry((format!("DROP {kind}"), reader)).or_default() += 1;
                                }
                            }
                            subscribes.retain(|_, on| on != name);
                            peeks.retain(|_, i| !indexes.contains(i));
                        }
                        _ => {}
                    }
                }
                Command::Subscribe { name, sql } => {
                    let words: Vec<&str> = sql.split_whitespace().collect();
                    let from = words.iter().position(|w| *w == "FROM").expect("FROM");
                    let on = words[from + 1].trim_end_matches(')');
                    subscribes.insert(name.clone(), on.to_string());
                }
                Command::Cancel { name } => {
                    subscribes.remove(name);
                }
                Command::IssuePeek { index, name, .. } => {
                    peeks.insert(name.clone(), index.clone());
                }
                Command::Await { name } => {
                    peeks.remove(name);
                }
                Command::Hold { on, name, .. } => {
                    holds.insert(name.clone(), on.clone());
                }
                Command::Release { name } => {
                    holds.remove(name);
                }
                _ => {}
            }
        }
    }
    seen
}

/// The generator drops every kind of relation (a table, a view, an index,
/// and the index a live subscribe's import reads) while a subscribe, a
/// named peek and a hold are alive on it, each many times over 300 seeds
/// (issue 33: no generated scenario dropped a subscribe's input).
#[test]
fn it_drops_every_kind_of_relation_under_every_kind_of_live_read() {
    let seen = drops_under_reads(0..300);
    for drop in ["DROP TABLE", "DROP VIEW", "DROP INDEX"] {
        for reader in ["subscribe", "named peek", "hold"] {
            let n = seen.get(&(drop.to_string(), reader)).copied().unwrap_or(0);
            assert!(
                n >= 3,
                "{drop} under a live {reader}: {n} times in 300 seeds ({seen:?})"
            );
        }
    }
}

/// Every directive and statement kind is generated somewhere in the first
/// 300 seeds, but those listed here, each withheld for a reason in
/// docs/tools/explorer.md: a kind that silently stops being generated
/// (version 4 had `allow-compaction`, `step` and `CREATE DEFAULT INDEX`
/// at 0) fails this test.
#[test]
fn every_kind_is_generated_but_those_withheld() {
    use super::tally::Tally;
    // `step`: stepping a paused runtime by hand under a live subscribe
    // found differences whose right answer is not decided. `other`: no
    // statement outside the engine's kinds is generated.
    const WITHHELD: &[&str] = &["step", "other"];
    let mut tally = Tally::default();
    for seed in 0..300 {
        tally.add(&generate(seed, &GenConfig::default()));
    }
    let line = tally.to_string();
    let counts = line
        .strip_prefix("generated: directives ")
        .expect("the tally's line");
    let counts = counts.replacen("; statements ", ", ", 1);
    let counts = counts.replacen("; forms ", ", ", 1);
    let mut seen = 0;
    for item in counts.split(", ") {
        let (kind, count) = item.rsplit_once(' ').expect("kind count");
        let withheld = WITHHELD.contains(&kind);
        assert_eq!(
            count == "0",
            withheld,
            "{kind} generated {count} times: {line}"
        );
        seen += 1;
    }
    assert!(seen > 20, "{line}");
}
