//! The real system's `bytea`: a string of bytes, read from its text as
//! its `parse_bytes` reads it (`\x` and hex digits, whitespace between
//! the bytes allowed, or the escape form: `\\` a backslash, `\nnn` an
//! octal byte, any other byte itself) and written as its `format_bytes`
//! writes it (`\x` and lowercase hex digits), with its error texts
//! (`repr/src/strconv.rs`, read for the facts).
//! Its order is the bytes' (a prefix first), as the real system's.

use std::fmt;

use super::quoted;

/// The text of a `bytea`: `\x` and two lowercase hex digits a byte.
pub struct Hex<'a>(pub &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\\x")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// `s` read as a `bytea`, with the real system's texts.
pub fn parse(s: &str) -> Result<Vec<u8>, String> {
    let invalid = |detail: &str| {
        format!(
            "invalid input syntax for type bytea: {detail}: {}",
            quoted(s)
        )
    };
    match s.strip_prefix("\\x") {
        Some(hex) => parse_hex(hex).map_err(|e| invalid(&e)),
        None => parse_escaped(s).map_err(invalid),
    }
}

/// Hex digits, two a byte, whitespace between the bytes skipped (the
/// real system's `parse_bytes_hex`, which `decode(s, 'hex')` shares).
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let nibble = |b: u8| match b {
        b'a'..=b'f' => Ok(b - b'a' + 10),
        b'A'..=b'F' => Ok(b - b'A' + 10),
        b'0'..=b'9' => Ok(b - b'0'),
        _ => Err(format!(
            "invalid hexadecimal digit: \"{}\"",
            char::from(b).escape_default()
        )),
    };
    let mut out = Vec::with_capacity(s.len() / 2);
    let mut digits = s.bytes();
    while let Some(high) = digits.next() {
        if matches!(high, b' ' | b'\n' | b'\t' | b'\r') {
            continue;
        }
        let high = nibble(high)?;
        let low = match digits.next() {
            None => return Err("invalid hexadecimal data: odd number of digits".into()),
            Some(low) => nibble(low)?,
        };
        out.push((high << 4) | low);
    }
    Ok(out)
}

/// The escape form (the real system's `parse_bytes_traditional`, which
/// `decode(s, 'escape')` shares): its error is the detail alone.
pub fn parse_escaped(s: &str) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(s.len());
    let mut bytes = s.bytes().fuse();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            None => return Err("ends with escape character"),
            Some(b'\\') => out.push(b'\\'),
            b => match (b, bytes.next(), bytes.next()) {
                (Some(d2 @ b'0'..=b'3'), Some(d1 @ b'0'..=b'7'), Some(d0 @ b'0'..=b'7')) => {
                    out.push(((d2 - b'0') << 6) + ((d1 - b'0') << 3) + (d0 - b'0'));
                }
                _ => return Err("invalid escape sequence"),
            },
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_as_the_real_system() {
        assert_eq!(parse("\\x00FF 1a\n2B").unwrap(), [0, 255, 0x1a, 0x2b]);
        assert_eq!(parse("\\x").unwrap(), b"");
        assert_eq!(parse("a\\\\b\\001\\377").unwrap(), b"a\\b\x01\xff");
        assert_eq!(Hex(&[0, 0xab, 0x10]).to_string(), "\\x00ab10");
        assert_eq!(Hex(b"").to_string(), "\\x");
    }

    #[test]
    fn refuses_as_the_real_system() {
        let refused = |s: &str| parse(s).unwrap_err();
        assert_eq!(
            refused("\\x0g"),
            "invalid input syntax for type bytea: invalid hexadecimal digit: \"g\": \"\\x0g\""
        );
        assert_eq!(
            refused("\\xabc"),
            "invalid input syntax for type bytea: invalid hexadecimal data: odd number of digits: \"\\xabc\""
        );
        assert_eq!(
            refused("a\\"),
            "invalid input syntax for type bytea: ends with escape character: \"a\\\""
        );
        // `\4` is no octal byte's first digit; `\x` is hex only first.
        assert_eq!(
            refused("\\400"),
            "invalid input syntax for type bytea: invalid escape sequence: \"\\400\""
        );
        assert!(parse("a\\x00").is_err());
    }
}
