//! The completed `.slt` file: every record updated with its output by the
//! crate's `update_record_with_output` and written back with its `Display`,
//! as the crate's own `--override` does. A record whose output already meets
//! its expectation is kept as written, so a completed file renders to itself.

use crate::format::slt::layout::{Layout, Origin, SltRecord};
use crate::format::slt::output as slt_output;
use crate::format::Transcript;
use sqllogictest::{
    default_normalizer, default_validator, strict_column_validator, update_record_with_output,
};

/// Renders `layout` with `outputs[i]` (printed by [`slt_output::render`]) as
/// the output of block `i`; `None` leaves the record as written.
pub fn render(layout: &Layout, outputs: &[Option<Vec<String>>]) -> Transcript {
    assert_eq!(layout.blocks.len(), outputs.len(), "one output per block");
    let mut records = layout.records.clone();
    let mut unmet = Vec::new();
    for (block, output) in layout.blocks.iter().zip(outputs) {
        let Some(lines) = output else { continue };
        let updated = complete(&block.record, lines);
        match &block.origin {
            Origin::Own(i) => records[*i] = updated,
            Origin::Included { file, .. } if updated != block.record => unmet.push(format!(
                "{file}:{}: `{}` does not hold (its output would make it `{}`)",
                line(&block.record),
                head(&block.record),
                head(&updated)
            )),
            Origin::Included { .. } => {}
        }
    }
    let mut text = String::new();
    let mut record_lines = Vec::with_capacity(records.len());
    for record in &records {
        record_lines.push(text.matches('\n').count());
        text.push_str(&format!("{record}\n"));
    }
    // As the crate's writer does: a file ends with exactly one newline.
    let kept = text.trim_end_matches('\n').len();
    if kept < text.len() {
        text.truncate(kept + 1);
    }
    if text == "\n" {
        text.clear();
    }
    let directive_lines = layout
        .blocks
        .iter()
        .map(|b| match b.origin {
            Origin::Own(i) | Origin::Included { via: i, .. } => record_lines[i],
        })
        .collect();
    Transcript {
        text,
        directive_lines,
        unmet,
        unwritable: Vec::new(),
    }
}

/// `record` completed with its output `lines`.
fn complete(record: &SltRecord, lines: &[String]) -> SltRecord {
    let output = slt_output::record_output(record, lines);
    update_record_with_output(
        record,
        &output,
        " ",
        default_validator,
        default_normalizer,
        strict_column_validator,
    )
    .unwrap_or_else(|| record.clone())
}

fn head(record: &SltRecord) -> String {
    crate::format::slt::layout::head(record)
}

fn line(record: &SltRecord) -> u32 {
    match record {
        SltRecord::Statement { loc, .. } | SltRecord::Query { loc, .. } => loc.line(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, Script};
    use std::path::Path;

    /// The crate dialect's layout; `None` for a file in another dialect.
    fn layout(script: &Script) -> Option<&crate::format::slt::layout::Layout> {
        match &script.format {
            Format::Sqllogictest(l) => Some(l),
            _ => None,
        }
    }

    /// Written back without outputs, a file is its own bytes (when it is in
    /// the crate's canonical layout, as the project's files are).
    #[test]
    fn the_projects_slt_files_round_trip() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        // Walked here, not through `suite::discover`: the formats sit below
        // the suite.
        let slt: Vec<_> = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .filter(|f| f.extension().is_some_and(|e| e == "slt"))
            .collect();
        assert!(slt.len() >= 10, "{slt:?}");
        for path in slt {
            let rel = path.strip_prefix(&root).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let script = Script::parse(&path, &rel.display().to_string(), &text).unwrap();
            // Materialize's dialect is its own parser's (`format::mz`).
            let Some(layout) = layout(&script) else {
                continue;
            };
            let none = vec![None; script.blocks.len()];
            let t = super::render(layout, &none);
            assert_eq!(t.text, text, "{}", rel.display());
            assert!(t.unmet.is_empty());
        }
    }

    #[test]
    fn directive_lines_point_at_records_and_includes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("inc.slti"),
            "statement ok\nCREATE TABLE u (a int)\n",
        )
        .unwrap();
        let text = "# c\n\nstatement ok\nCREATE TABLE t (a int)\n\ninclude inc.slti\n\nquery I\nSELECT 1\n----\n1\n";
        let path = dir.path().join("a.slt");
        let script = Script::parse(&path, "a.slt", text).unwrap();
        let lines: Vec<usize> = script.blocks.iter().map(|b| b.directive.line).collect();
        assert_eq!(lines, [3, 6, 8]);
        assert_eq!(script.blocks[1].directive.text, "statement ok (inc.slti:1)");
        let t = super::render(layout(&script).unwrap(), &[None, None, None]);
        assert_eq!(t.text, text);
        assert_eq!(t.directive_lines, [2, 5, 7]);
    }
}
