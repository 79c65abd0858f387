//! GitHub Actions workflow commands: `::error file=F,line=L,title=T::message`,
//! one line on a step's output, which GitHub shows as an annotation on line
//! L of F (in a pull request's diff when F is in it) and in the run's list
//! of annotations.
//!
//! Escaped as the Actions runner unescapes them (actions/runner,
//! `src/Runner.Common/ActionCommand.cs`; the rule of GitHub's "Workflow
//! commands" page): in the message `%`, CR and LF become `%25`, `%0D` and
//! `%0A`; in a property also `:` and `,` become `%3A` and `%2C`, since the
//! property list ends at the first `::` and is cut at every `,`. So a file
//! name or message holding any of them stays one command and reads back as
//! itself. The oracle and the explorer write theirs with this module too.

/// `text` for a command's message: `%`, CR and LF escaped.
pub fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// `text` for a command's property: as [`escape_data`], and `:` and `,`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// An error annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation<'a> {
    /// The file it is on, relative to the repository's root; `None`: on
    /// the run, not on a file.
    pub file: Option<&'a str>,
    /// The 1-based line, with `file`.
    pub line: Option<usize>,
    /// Its heading (GitHub trims the property list's end, so a title
    /// should not end in white space).
    pub title: &'a str,
    /// Its text, any number of lines.
    pub message: &'a str,
}

impl Annotation<'_> {
    /// The `::error` command, one line ending in a newline.
    pub fn command(&self) -> String {
        let mut properties = Vec::new();
        if let Some(file) = self.file {
            properties.push(format!("file={}", escape_property(file)));
            if let Some(line) = self.line {
                properties.push(format!("line={line}"));
            }
        }
        properties.push(format!("title={}", escape_property(self.title)));
        format!(
            "::error {}::{}\n",
            properties.join(","),
            escape_data(self.message)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;
    use std::collections::BTreeMap;

    /// A command as the Actions runner reads it (`ActionCommand.TryParseV2`):
    /// its name, its properties and its message, unescaped.
    fn parse(line: &str) -> Option<(String, BTreeMap<String, String>, String)> {
        let message = line.trim_start();
        let rest = message.strip_prefix("::")?;
        let end = rest.find("::")?;
        let info = &rest[..end];
        let (name, list) = info.split_once(' ').unwrap_or((info, ""));
        let mut properties = BTreeMap::new();
        for pair in list.trim().split(',').filter(|p| !p.is_empty()) {
            if let Some((key, value)) = pair.split_once('=') {
                if !key.is_empty() && !value.is_empty() {
                    properties.insert(key.to_string(), unescape(value, true));
                }
            }
        }
        Some((
            name.to_string(),
            properties,
            unescape(&rest[end + 2..], false),
        ))
    }

    /// The runner's replacements, in its order (`%25` last).
    fn unescape(text: &str, property: bool) -> String {
        let mut s = text.replace("%0D", "\r").replace("%0A", "\n");
        if property {
            s = s.replace("%3A", ":").replace("%2C", ",");
        }
        s.replace("%25", "%")
    }

    #[test]
    fn hostile_names_and_messages_stay_one_command() {
        let file = "testdata/a,b:c%25d\ne::f.dd";
        let message = "100% sure:\r\nline two, with ::colons";
        let a = Annotation {
            file: Some(file),
            line: Some(7),
            title: "runner: golden diff, at 7: query",
            message,
        };
        let command = a.command();
        assert_eq!(
            command,
            "::error file=testdata/a%2Cb%3Ac%2525d%0Ae%3A%3Af.dd,line=7,title=runner%3A golden diff%2C at 7%3A query::100%25 sure:%0D%0Aline two, with ::colons\n"
        );
        let (name, properties, data) = parse(command.trim_end_matches('\n')).unwrap();
        assert_eq!(name, "error");
        assert_eq!(properties["file"], file);
        assert_eq!(properties["line"], "7");
        assert_eq!(properties["title"], a.title);
        assert_eq!(data, message);
    }

    #[test]
    fn without_a_file_there_is_no_line() {
        let a = Annotation {
            file: None,
            line: Some(3),
            title: "explore: seed 4",
            message: "m",
        };
        assert_eq!(a.command(), "::error title=explore%3A seed 4::m\n");
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            rng_seed: RngSeed::Fixed(0x7a5c_0005),
            ..ProptestConfig::default()
        })]

        /// Whatever the file, title and message, the command is one line
        /// and the runner reads back exactly them.
        #[test]
        fn every_command_reads_back_as_written(
            file in "[a-z%:,=\\n\\r /.é]{1,12}",
            line in 1usize..100_000,
            title in "[A-Za-z%:,=\\n\\r .]{0,10}[A-Za-z%:,.]",
            message in "(?s).{0,40}",
        ) {
            let a = Annotation { file: Some(&file), line: Some(line), title: &title, message: &message };
            let command = a.command();
            let body = command.strip_suffix('\n').unwrap();
            prop_assert!(!body.contains('\n') && !body.contains('\r'), "{command:?}");
            let (name, properties, data) = parse(body).unwrap();
            prop_assert_eq!(name, "error");
            prop_assert_eq!(&properties["file"], &file);
            prop_assert_eq!(properties["line"].clone(), line.to_string());
            prop_assert_eq!(&properties["title"], &title);
            prop_assert_eq!(data, message);
        }
    }
}
