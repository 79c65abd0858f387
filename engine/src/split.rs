//! Splitting a directive's SQL into statements, so each is planned against
//! the catalog the statements before it produced.

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::tokenizer::{Token, Tokenizer};

/// The `;`-separated statements of `sql`, as text, empty ones dropped.
pub fn statements(sql: &str) -> Result<Vec<String>, String> {
    let dialect = PostgreSqlDialect {};
    let tokens = Tokenizer::new(&dialect, sql)
        .tokenize_with_location()
        .map_err(|e| e.to_string())?;
    let lines: Vec<&str> = sql.split_inclusive('\n').collect();
    // Byte offset of a 1-based (line, column) location; columns count chars.
    let offset = |line: u64, column: u64| -> usize {
        let before: usize = lines.iter().take(line as usize - 1).map(|l| l.len()).sum();
        let text = lines.get(line as usize - 1).copied().unwrap_or("");
        before
            + text
                .char_indices()
                .nth(column as usize - 1)
                .map_or(text.len(), |(i, _)| i)
    };
    let mut out = Vec::new();
    let mut start = 0;
    for token in &tokens {
        if token.token == Token::SemiColon {
            let end = offset(token.span.start.line, token.span.start.column);
            out.push(sql[start..end].to_string());
            start = end + 1;
        }
    }
    out.push(sql[start..].to_string());
    Ok(out.into_iter().filter(|s| !s.trim().is_empty()).collect())
}

#[cfg(test)]
mod tests {
    use super::statements;

    #[test]
    fn splits_at_top_level_semicolons_only() {
        let got = statements("CREATE TABLE t (a int);\nINSERT INTO t VALUES ('x;y');\n").unwrap();
        assert_eq!(
            got,
            vec!["CREATE TABLE t (a int)", "\nINSERT INTO t VALUES ('x;y')"]
        );
    }

    #[test]
    fn drops_empty_statements() {
        assert_eq!(statements(" ; ;SELECT 1;").unwrap(), vec!["SELECT 1"]);
    }
}
