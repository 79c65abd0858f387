//! Every run of a file must produce the same output for every directive it
//! ran. This module finds where runs split and builds the transcripts to show.

use crate::run::replay::RunRecord;

/// Runs that agree at the first directive where runs disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Their output at that directive.
    pub output: Vec<String>,
    /// Indices into the records, in run order.
    pub runs: Vec<usize>,
}

/// Where the runs of a file split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The first block whose output differs between runs.
    pub block: usize,
    /// The runs that ran that block, grouped by output, in order of first run.
    pub groups: Vec<Group>,
    /// Every block whose output differs between runs, in order.
    pub differing_blocks: Vec<usize>,
}

/// Groups the runs that ran `block` by their output there.
fn groups_at(records: &[RunRecord], block: usize) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let Some(output) = &r.outputs[block] else {
            continue;
        };
        match groups.iter_mut().find(|g| g.output == *output) {
            Some(g) => g.runs.push(i),
            None => groups.push(Group {
                output: output.clone(),
                runs: vec![i],
            }),
        }
    }
    groups
}

/// `None` if all runs agree on every directive they ran.
pub fn find(records: &[RunRecord]) -> Option<Divergence> {
    let blocks = records.first()?.outputs.len();
    let differing: Vec<usize> = (0..blocks)
        .filter(|&b| groups_at(records, b).len() > 1)
        .collect();
    let &block = differing.first()?;
    Some(Divergence {
        block,
        groups: groups_at(records, block),
        differing_blocks: differing,
    })
}

/// Per block, the output of the first run that ran it (`None` if none did).
pub fn reference(records: &[RunRecord], blocks: usize) -> Vec<Option<Vec<String>>> {
    (0..blocks)
        .map(|b| records.iter().find_map(|r| r.outputs[b].clone()))
        .collect()
}

/// A run's outputs, with the blocks it skipped filled in from `reference`, so
/// that two runs' transcripts differ only where their outputs do.
pub fn outputs_of(
    record: &RunRecord,
    reference: &[Option<Vec<String>>],
) -> Vec<Option<Vec<String>>> {
    record
        .outputs
        .iter()
        .zip(reference)
        .map(|(own, r)| own.clone().or_else(|| r.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::matrix::Run;
    use crate::suite::Schedule;

    fn rec(config: &str, outputs: &[Option<&str>]) -> RunRecord {
        RunRecord {
            run: Run {
                configuration: config.into(),
                sharing: config == "shared",
                delta_joins: false,
                workers: 1,
                schedule: Schedule::RoundRobin,
            },
            outputs: outputs
                .iter()
                .map(|o| o.map(|s| s.lines().map(str::to_string).collect()))
                .collect(),
            reads: 0,
            witness: Default::default(),
        }
    }

    #[test]
    fn agreement_ignores_skipped_directives() {
        let records = [
            rec("solo", &[Some("ok"), Some("1"), None]),
            rec("shared", &[Some("ok"), None, Some("2")]),
        ];
        assert_eq!(find(&records), None);
        let reference = reference(&records, 3);
        assert_eq!(
            reference,
            [
                Some(vec!["ok".into()]),
                Some(vec!["1".into()]),
                Some(vec!["2".into()])
            ]
        );
        assert_eq!(outputs_of(&records[1], &reference), reference);
    }

    #[test]
    fn finds_first_split() {
        let records = [
            rec("solo", &[Some("ok"), Some("1"), Some("a")]),
            rec("solo", &[Some("ok"), Some("1"), Some("a")]),
            rec("shared", &[Some("ok"), Some("2"), Some("b")]),
            rec("shared", &[Some("ok"), Some("1"), Some("c")]),
        ];
        let d = find(&records).unwrap();
        assert_eq!(d.block, 1);
        assert_eq!(d.differing_blocks, [1, 2]);
        assert_eq!(
            d.groups,
            [
                Group {
                    output: vec!["1".into()],
                    runs: vec![0, 1, 3]
                },
                Group {
                    output: vec!["2".into()],
                    runs: vec![2]
                },
            ]
        );
    }

    #[test]
    fn split_between_runs_of_one_configuration_only() {
        // Both shared runs ran a directive solo skipped, and disagree on it.
        let records = [
            rec("solo", &[Some("ok"), None]),
            rec("shared", &[Some("ok"), Some("x")]),
            rec("shared", &[Some("ok"), Some("y")]),
        ];
        let d = find(&records).unwrap();
        assert_eq!(d.block, 1);
        assert_eq!(d.groups.len(), 2);
        assert_eq!(d.groups[0].runs, [1]);
        assert_eq!(d.groups[1].runs, [2]);
    }
}
