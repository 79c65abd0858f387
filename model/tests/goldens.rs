//! The model over the whole suite: every `testdata/**/*.dd` scenario is
//! replayed through the model against its golden's reviewed outputs. Every
//! claim must agree, and the model must claim at least a measured floor, so
//! that a model that silently stops claiming fails too.

use model::check::{check_tally, Tally};
use runner::format::Script;
use std::path::{Path, PathBuf};

/// Claims measured over the suite when this test was written; a drop below
/// it means the model stopped covering part of the suite.
const CLAIM_FLOOR: usize = 507;

fn scenarios(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a readable directory")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scenarios(&p, out);
        } else if p.extension().is_some_and(|e| e == "dd") {
            out.push(p);
        }
    }
}

#[test]
fn every_claim_over_the_suite_agrees_with_the_goldens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![];
    scenarios(&root.join("testdata"), &mut files);
    let mut total = Tally::default();
    let mut mismatches = vec![];
    for file in &files {
        let relative = file
            .strip_prefix(root.join("testdata"))
            .expect("under testdata");
        let golden = root.join("goldens").join(relative);
        let text = std::fs::read_to_string(&golden).expect("every scenario has a golden");
        let shown = golden.display().to_string();
        let script = Script::parse(&golden, &shown, &text).expect("goldens parse");
        let outputs: Vec<Option<Vec<String>>> = (0..script.blocks.len())
            .map(|b| Some(script.written(b)))
            .collect();
        match check_tally(&script, &outputs) {
            Ok(t) => {
                eprintln!(
                    "{}: {} claimed, {} unclaimed",
                    relative.display(),
                    t.claimed,
                    t.unclaimed()
                );
                total.add(&t);
            }
            Err(m) => mismatches.push(format!("{}:{m}", relative.display())),
        }
    }
    eprintln!(
        "{} files: {} claimed (all agree), {} unclaimed",
        files.len(),
        total.claimed,
        total.unclaimed()
    );
    for (why, n) in &total.unclaimed {
        eprintln!("  {n:4} no claim: {why}");
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        total.claimed >= CLAIM_FLOOR,
        "{} claims, floor {CLAIM_FLOOR}",
        total.claimed
    );
}
