//! The generator's promises: the same seed gives the same bytes, every
//! generated file parses, no join reads a join's rows, and dropping a step
//! drops what depends on it.

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
            let reads_joined = step.uses.iter().any(|u| joined.contains(u));
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
