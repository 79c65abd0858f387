//! Identifiers as Materialize's parser prints them (`Ident`'s
//! `can_be_printed_bare` and its `sql-lexer`'s keywords): one place for
//! `quote_ident`, `SHOW` of a variable of identifiers and the longest name.

/// The real system's longest identifier, in bytes.
pub const MAX_IDENTIFIER_BYTES: usize = 255;

/// The keywords the real system's parser reserves somewhere
/// (`Keyword::is_sometimes_reserved`), with the table alias's `OUTER` and
/// the column alias's units: an identifier that is one prints quoted.
const SOMETIMES_RESERVED: [&str; 41] = [
    "array",
    "case",
    "cast",
    "cross",
    "day",
    "except",
    "false",
    "fetch",
    "from",
    "full",
    "group",
    "having",
    "hour",
    "inner",
    "intersect",
    "join",
    "left",
    "limit",
    "minute",
    "month",
    "natural",
    "not",
    "null",
    "offset",
    "on",
    "options",
    "order",
    "outer",
    "qualify",
    "returning",
    "right",
    "second",
    "select",
    "set",
    "true",
    "union",
    "using",
    "where",
    "window",
    "with",
    "year",
];

/// `s` as an `Ident` prints it: bare if it is a lower case word and no
/// sometimes reserved keyword, quoted otherwise, its double quotes doubled.
pub fn printed(s: &str) -> String {
    let mut chars = s.chars();
    let bare = chars.next().is_some_and(|c| matches!(c, 'a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && !SOMETIMES_RESERVED.contains(&s);
    match bare {
        true => s.to_string(),
        false => format!("\"{}\"", s.replace('"', "\"\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::printed;

    #[test]
    fn a_word_prints_bare_and_anything_else_quoted() {
        assert_eq!(printed("abc_1"), "abc_1");
        assert_eq!(printed("Abc"), "\"Abc\"");
        assert_eq!(printed("1a"), "\"1a\"");
        assert_eq!(printed(""), "\"\"");
        assert_eq!(printed("a\"b"), "\"a\"\"b\"");
        assert_eq!(printed("year"), "\"year\"");
        assert_eq!(printed("outer"), "\"outer\"");
        assert_eq!(printed("table"), "table");
    }
}
