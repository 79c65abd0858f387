//! Markdown for GitHub's job summary, built so that any text shows as
//! itself: a file name, a directive or a diff line can hold characters
//! Markdown or GitHub would read as syntax (a table's `|`, a code span's
//! backtick, emphasis, links, raw HTML, entities, `$` math, `:emoji:`,
//! `@mentions`, `#references`) and line breaks, which a table row cannot.
//! The oracle and the explorer write their summaries with it too.

/// ASCII punctuation written as a character reference in [`text`]: what
/// Markdown, GitHub Flavored Markdown or GitHub itself reads as syntax.
const SYNTAX: &str = "\\`*_{}[]()<>#!|~$:@&^\"";

/// `s` as inline Markdown that shows as itself, in a paragraph or a table
/// cell: syntax characters as numeric character references, CR and LF as
/// the visible ␍ and ␤.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\r' => out.push('␍'),
            '\n' => out.push('␤'),
            c if SYNTAX.contains(c) => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// [`text`] in monospace.
pub fn code(s: &str) -> String {
    format!("<code>{}</code>", text(s))
}

/// `s` inside raw HTML, where Markdown is not read (a `<summary>`): `&`,
/// `<`, `>` and `"` as references, CR and LF as ␍ and ␤ (a blank line
/// would end the HTML block).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push('␍'),
            '\n' => out.push('␤'),
            c => out.push(c),
        }
    }
    out
}

/// A fenced code block of `body` (its lines shown as they are), the fence
/// longer than any run of backticks in it, so no line of it can close it.
pub fn fenced(info: &str, body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if body.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{info}\n{body}{newline}{fence}\n")
}

/// A table; the cells must be inline Markdown without line breaks or
/// bare `|` ([`text`], [`code`]).
pub fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let head: Vec<String> = head.iter().map(|h| h.to_string()).collect();
    let rule: Vec<String> = head.iter().map(|_| "---".to_string()).collect();
    let mut out = line(&head) + &line(&rule);
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// A collapsed block: `summary` (raw HTML, see [`html`]) and `body`
/// (Markdown).
pub fn details(summary: &str, body: &str) -> String {
    format!("<details><summary>{summary}</summary>\n\n{body}\n</details>\n")
}

/// The beginning of `text`, at most `max_lines` lines and `max_bytes`
/// bytes of whole lines (but at least part of the first), and how many of
/// its lines were left out or cut.
pub fn bounded(text: &str, max_lines: usize, max_bytes: usize) -> (String, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let mut shown = String::new();
    let mut kept = 0;
    for line in lines.iter().take(max_lines) {
        if shown.len() + line.len() + 1 > max_bytes {
            break;
        }
        shown.push_str(line);
        shown.push('\n');
        kept += 1;
    }
    if kept == 0 && !lines.is_empty() && max_lines > 0 {
        let mut end = max_bytes.min(lines[0].len());
        while !lines[0].is_char_boundary(end) {
            end -= 1;
        }
        shown = format!("{}…\n", &lines[0][..end]);
    }
    (shown, lines.len() - kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_shows_as_itself_even_in_a_table_cell() {
        assert_eq!(text("testdata/a.dd"), "testdata/a.dd");
        assert_eq!(
            text("a|b `c` *d* <e> :+1: @you #3 $x$\nf"),
            "a&#124;b &#96;c&#96; &#42;d&#42; &#60;e&#62; &#58;+1&#58; &#64;you &#35;3 &#36;x&#36;␤f"
        );
        assert_eq!(code("x|y"), "<code>x&#124;y</code>");
        assert_eq!(html("<b> & \"x\"\r\n"), "&lt;b&gt; &amp; &quot;x&quot;␍␤");
    }

    #[test]
    fn a_fence_outlasts_every_backtick_run_in_its_body() {
        assert_eq!(fenced("diff", "-a\n+b\n"), "```diff\n-a\n+b\n```\n");
        assert_eq!(fenced("", "````\nx"), "`````\n````\nx\n`````\n");
    }

    #[test]
    fn tables_and_details() {
        let rows = vec![vec![code("a"), text("b")]];
        assert_eq!(
            table(&["x", "y"], &rows),
            "| x | y |\n| --- | --- |\n| <code>a</code> | b |\n"
        );
        assert_eq!(
            details("s", "b\n"),
            "<details><summary>s</summary>\n\nb\n\n</details>\n"
        );
    }

    #[test]
    fn bounded_keeps_whole_lines_and_counts_the_rest() {
        assert_eq!(bounded("a\nb\nc\n", 2, 100), ("a\nb\n".to_string(), 1));
        assert_eq!(bounded("a\nb\nc", 5, 4), ("a\nb\n".to_string(), 1));
        assert_eq!(bounded("a\nb\n", 5, 100), ("a\nb\n".to_string(), 0));
        assert_eq!(bounded("ééé\nx\n", 5, 3), ("é…\n".to_string(), 2));
        assert_eq!(bounded("", 5, 3), (String::new(), 0));
    }
}
