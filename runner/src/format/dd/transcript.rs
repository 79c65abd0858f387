//! The writer: a completed transcript is the scenario's text, byte for byte,
//! with each directive's output block replaced by the output it produced.

use crate::format::dd::parse::SEPARATOR;
use crate::format::{Script, Transcript};

/// Whether `output` must be written in the doubled `----` `----` form: it has
/// a blank line (which would end a single-form block), or a `----` line.
pub fn needs_doubled(output: &[String]) -> bool {
    output.iter().any(|l| l.trim().is_empty() || l == SEPARATOR)
}

/// Whether `output` parses back from its [`output_block`]. The doubled
/// form ends at the first `----` `----` pair, so an output with two `----`
/// lines in a row, or ending in one, cannot be written (a row whose text is
/// `----`): the check reports it instead of writing a golden that does not
/// parse.
pub fn writable(output: &[String]) -> bool {
    let separator = |l: &String| l == SEPARATOR;
    !output
        .windows(2)
        .any(|w| separator(&w[0]) && separator(&w[1]))
        && !output.last().is_some_and(separator)
}

/// The canonical text of an output block, starting with its `----` line.
pub fn output_block(output: &[String]) -> String {
    let mut s = String::new();
    let doubled = needs_doubled(output);
    s.push_str(SEPARATOR);
    s.push('\n');
    if doubled {
        s.push_str(SEPARATOR);
        s.push('\n');
    }
    for line in output {
        s.push_str(line);
        s.push('\n');
    }
    if doubled {
        s.push_str(SEPARATOR);
        s.push('\n');
        s.push_str(SEPARATOR);
        s.push('\n');
    }
    s
}

/// Renders `script` with `outputs[i]` as the output of block `i`.
///
/// An output equal to the one already in the file keeps its original bytes,
/// so rendering a parsed file with its own outputs reproduces it exactly.
pub fn render(script: &Script, outputs: &[Vec<String>]) -> Transcript {
    assert_eq!(
        script.blocks.len(),
        outputs.len(),
        "one output per directive block"
    );
    let text = &script.text;
    let mut out = String::with_capacity(text.len());
    let mut lines_out = 0;
    let mut directive_lines = Vec::with_capacity(outputs.len());
    let mut cursor = 0;
    let mut unwritable = Vec::new();
    for (i, (block, output)) in script.blocks.iter().zip(outputs).enumerate() {
        let before_directive = &text[cursor..block.directive_offset];
        directive_lines.push(lines_out + before_directive.matches('\n').count());
        let verbatim = &text[cursor..block.output_span.start];
        out.push_str(verbatim);
        lines_out += verbatim.matches('\n').count();
        let replacement = if *output == block.output {
            text[block.output_span.clone()].to_string()
        } else {
            if !writable(output) {
                unwritable.push(i);
            }
            output_block(output)
        };
        lines_out += replacement.matches('\n').count();
        out.push_str(&replacement);
        cursor = block.output_span.end;
    }
    out.push_str(&text[cursor..]);
    Transcript {
        text: out,
        directive_lines,
        unmet: Vec::new(),
        unwritable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dd::parse::parse;

    fn own_outputs(script: &Script) -> Vec<Vec<String>> {
        script.blocks.iter().map(|b| b.output.clone()).collect()
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const SCENARIO: &str = "# workers: 2\n# A comment.\n\nstatement\nCREATE TABLE t (a int)\n----\n\n# between\n\nquery nosort\nSELECT a\nFROM t\n----\n\npeek index=i configs=(solo,shared)\n----\n";

    #[test]
    fn round_trip_is_byte_stable() {
        let inputs = [
            SCENARIO,
            "tick\n----\nok\n",
            "tick\n----\nok",
            "tick\n----",
            "tick\n----\n----\na\n\nb\n----\n----\n\n\ntick\n----\nok\n\n",
            // A doubled block without blank lines is not canonical, but kept.
            "tick\n----\n----\nok\n----\n----\n",
            "\n\n# only comments\n\n",
            "",
            "statement\r\nCREATE TABLE t (a int)\r\n----\r\nok\r\n\r\n",
        ];
        for input in inputs {
            let script = parse("t.dd", input).unwrap();
            let t = render(&script, &own_outputs(&script));
            assert_eq!(t.text, input, "round trip of {input:?}");
        }
    }

    #[test]
    fn fills_outputs_and_keeps_everything_else() {
        let script = parse("t.dd", SCENARIO).unwrap();
        let t = render(&script, &[lines(&["ok"]), lines(&["2", "1"]), lines(&[])]);
        assert_eq!(
            t.text,
            "# workers: 2\n# A comment.\n\nstatement\nCREATE TABLE t (a int)\n----\nok\n\n# between\n\nquery nosort\nSELECT a\nFROM t\n----\n2\n1\n\npeek index=i configs=(solo,shared)\n----\n"
        );
        assert_eq!(t.directive_lines, [3, 10, 17]);
        // The rendered transcript parses back to the same outputs.
        let again = parse("t.dd", &t.text).unwrap();
        assert_eq!(
            own_outputs(&again),
            [lines(&["ok"]), lines(&["2", "1"]), lines(&[])]
        );
        // Replaying a golden renders the same bytes (idempotent).
        let t2 = render(&again, &own_outputs(&again));
        assert_eq!(t2.text, t.text);
    }

    #[test]
    fn replaces_old_outputs() {
        let script = parse(
            "t.dd",
            "tick\n----\nstale\nlines\n\ntick\n----\n----\nx\n\n----\n----\n",
        )
        .unwrap();
        let t = render(&script, &[lines(&["ok"]), lines(&["ok"])]);
        assert_eq!(t.text, "tick\n----\nok\n\ntick\n----\nok\n");
    }

    #[test]
    fn doubled_only_for_blank_lines() {
        let script = parse("t.dd", "query\nSELECT ''\n----\n\nquery\nSELECT 1\n----\n").unwrap();
        let t = render(&script, &[lines(&["a", "", "b"]), lines(&["1"])]);
        assert_eq!(
            t.text,
            "query\nSELECT ''\n----\n----\na\n\nb\n----\n----\n\nquery\nSELECT 1\n----\n1\n"
        );
        assert_eq!(t.directive_lines, [0, 10]);
        let again = parse("t.dd", &t.text).unwrap();
        assert_eq!(own_outputs(&again), [lines(&["a", "", "b"]), lines(&["1"])]);
        assert!(needs_doubled(&lines(&["  "])));
        assert!(needs_doubled(&lines(&["----"])));
        assert!(!needs_doubled(&lines(&["ok", "a b"])));
    }

    #[test]
    fn outputs_the_format_cannot_hold_are_named() {
        let script = parse("t.dd", "query\nSELECT 1\n----\n\nquery\nSELECT 2\n----\n").unwrap();
        // One `----` row between others is written doubled and parses back.
        let t = render(&script, &[lines(&["a", "----", "b"]), lines(&["x"])]);
        assert!(t.unwritable.is_empty());
        let again = parse("t.dd", &t.text).unwrap();
        assert_eq!(
            own_outputs(&again),
            [lines(&["a", "----", "b"]), lines(&["x"])]
        );
        // A `----` row last, or two in a row, would close the block early.
        let t = render(
            &script,
            &[lines(&["----"]), lines(&["a", "----", "----", "b"])],
        );
        assert_eq!(t.unwritable, [0, 1]);
        assert!(parse("t.dd", &t.text).is_err());
        assert!(writable(&lines(&["----", "a", "----", "b"])));
        assert!(!writable(&lines(&["a", "----"])));
    }

    #[test]
    fn output_at_end_of_file_without_newline() {
        let script = parse("t.dd", "tick\n----").unwrap();
        let t = render(&script, &[lines(&["ok"])]);
        assert_eq!(t.text, "tick\n----\nok\n");
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use proptest::test_runner::RngSeed;

        /// Output lines as an engine could print them: dashes, blanks,
        /// spaces, `#`, unicode; never a line break inside a line.
        fn line() -> impl Strategy<Value = String> {
            prop_oneof![
                Just(String::new()),
                Just(SEPARATOR.to_string()),
                Just("-".to_string()),
                Just("  ".to_string()),
                "[-# a-zé✓0-9]{1,8}",
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 256,
                failure_persistence: None,
                rng_seed: RngSeed::Fixed(0x7a5c_0001),
                ..ProptestConfig::default()
            })]

            /// Whatever outputs a file gets, its transcript parses back to
            /// exactly them when the format can hold them, and renders the
            /// same bytes again; and an output it cannot hold is named.
            #[test]
            fn written_outputs_parse_back(
                outputs in prop::collection::vec(prop::collection::vec(line(), 0..6), 1..5)
            ) {
                let text: String = (0..outputs.len()).map(|i| format!("query\nSELECT {i}\n----\n\n")).collect();
                let script = parse("p.dd", &text).unwrap();
                let t = render(&script, &outputs);
                let unwritable: Vec<usize> =
                    (0..outputs.len()).filter(|i| !writable(&outputs[*i])).collect();
                prop_assert_eq!(&t.unwritable, &unwritable);
                if unwritable.is_empty() {
                    let again = parse("p.dd", &t.text).unwrap();
                    prop_assert_eq!(own_outputs(&again), outputs.clone());
                    prop_assert_eq!(render(&again, &outputs).text, t.text);
                }
            }

            /// Any text of directive-like lines either parses, and then
            /// renders back byte for byte with its own outputs, or is a
            /// file error; it never panics.
            #[test]
            fn any_text_parses_or_errs_and_round_trips(
                lines in prop::collection::vec(prop_oneof![
                    line(),
                    Just("tick".to_string()),
                    Just("query".to_string()),
                    Just("statement configs=(solo)".to_string()),
                    Just("peek index=i as-of=1".to_string()),
                    Just("SELECT 1".to_string()),
                    Just("\r".to_string()),
                ], 0..24),
                end in prop_oneof![Just(""), Just("\n"), Just("\r\n")],
            ) {
                let text = lines.join("\n") + end;
                if let Ok(script) = parse("p.dd", &text) {
                    prop_assert_eq!(render(&script, &own_outputs(&script)).text, text);
                }
            }
        }
    }
}
