//! `char(n)` and `varchar(n)` as the real system has them (its
//! `repr/src/adt/char.rs` and `varchar.rs`, read for the facts): their
//! length limits, how a string is made a value of each, and how a `char`
//! is shown.
//!
//! Every string type's value is a `Datum::Text`. A `char` value is kept
//! with its trailing whitespace trimmed, as the real system keeps it, so
//! that `'a'::char(3)` and `'a  '::char(5)` are equal datums, group and
//! join alike; it is blank padded to its length only where a client sees
//! it (a read's rows, `LIKE`'s left side). A `varchar` value is kept as it
//! is, trailing blanks and all.

use std::borrow::Cow;

use super::{Column, Datum, Row, ScalarType};

/// The largest length (exclusive) of a `char(n)` or `varchar(n)`.
pub const MAX_LENGTH: u64 = 10_485_760;

/// `char(n)` (blank padded) or `varchar(n)` (limited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Char,
    VarChar,
}

impl Kind {
    /// The name a length error gives the type.
    fn long_name(self) -> &'static str {
        match self {
            Kind::Char => "character",
            Kind::VarChar => "character varying",
        }
    }

    /// The real system's short name for the type with its length, as its
    /// errors print it: `char(3)`, `varchar`.
    pub fn name(self, length: Option<u32>) -> Cow<'static, str> {
        let base = match self {
            Kind::Char => "char",
            Kind::VarChar => "varchar",
        };
        match length {
            Some(n) => format!("{base}({n})").into(),
            None => base.into(),
        }
    }

    /// A length written in a type name, checked as the real system checks
    /// it: `length for type character must be between 1 and 10485760`.
    pub fn length(self, n: u64) -> Result<u32, String> {
        match u32::try_from(n) {
            Ok(n) if n > 0 && u64::from(n) < MAX_LENGTH => Ok(n),
            _ => Err(format!(
                "length for type {} must be between 1 and {MAX_LENGTH}",
                self.long_name()
            )),
        }
    }

    /// `s` as a value of this type of at most `length` characters: cut to
    /// the length (an explicit cast), or, when `fail_on_len` (an
    /// assignment), cut only where what is cut is ASCII whitespace and
    /// otherwise `value too long for type character varying(3)`. A `char`
    /// value's trailing whitespace is then trimmed (see the module).
    pub fn convert(
        self,
        s: &str,
        length: Option<u32>,
        fail_on_len: bool,
    ) -> Result<String, String> {
        let cut = match length.and_then(|n| s.char_indices().nth(n as usize)) {
            None => s,
            Some((at, _)) if !fail_on_len || s[at..].chars().all(|c| c.is_ascii_whitespace()) => {
                &s[..at]
            }
            Some(_) => {
                return Err(format!(
                    "value too long for type {}({})",
                    self.long_name(),
                    length.unwrap_or_default()
                ))
            }
        };
        Ok(match self {
            Kind::Char => cut.trim_end().to_string(),
            Kind::VarChar => cut.to_string(),
        })
    }
}

/// A `char(length)` value (kept trimmed) as a client sees it: blank padded
/// to `length` characters; a `char` without a length as it is.
pub fn pad(s: &str, length: Option<u32>) -> String {
    match length {
        Some(n) => format!("{s:width$}", width = n as usize),
        None => s.to_string(),
    }
}

/// A `char(length)` datum as a client sees it, blank padded.
pub fn padded(d: Datum, length: Option<u32>) -> Datum {
    match d {
        Datum::Text(s) => Datum::Text(pad(&s, length)),
        d => d,
    }
}

/// `row` with its `char` columns (of `types`, one per column) blank
/// padded: a read's row as a client sees it.
pub fn pad_row(mut row: Row, types: &[ScalarType]) -> Row {
    for (d, t) in row.iter_mut().zip(types) {
        if let ScalarType::Char(length) = t {
            *d = padded(std::mem::replace(d, Datum::Null), *length);
        }
    }
    row
}

/// The types a read of `columns` shows its rows by: none, unless one is a
/// `char`.
pub fn shown(columns: &[Column]) -> Vec<ScalarType> {
    let types = columns.iter().map(|c| c.typ);
    match types.clone().any(|t| matches!(t, ScalarType::Char(_))) {
        true => types.collect(),
        false => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_casts_cut_and_char_trims() {
        let c = |s, n| Kind::Char.convert(s, n, false).unwrap();
        let v = |s, n| Kind::VarChar.convert(s, n, false).unwrap();
        assert_eq!(c("aaaaaa", Some(3)), "aaa");
        assert_eq!(c("a  b", Some(3)), "a");
        assert_eq!(c("a \t", None), "a");
        assert_eq!(c(" ", Some(3)), "");
        assert_eq!(v("aaaaa ", Some(3)), "aaa");
        assert_eq!(v("a  ", Some(30)), "a  ");
        assert_eq!(v("a  ", None), "a  ");
        // Characters, not bytes.
        assert_eq!(v("释手爱", Some(2)), "释手");
    }

    #[test]
    fn assignment_fails_unless_only_blanks_are_cut() {
        let c = |s, n| Kind::Char.convert(s, Some(n), true);
        let v = |s, n| Kind::VarChar.convert(s, Some(n), true);
        assert_eq!(c("ab    ", 3), Ok("ab".to_string()));
        assert_eq!(v("abc   ", 3), Ok("abc".to_string()));
        assert_eq!(v("ab    ", 3), Ok("ab ".to_string()));
        assert_eq!(
            c("abcd", 3).unwrap_err(),
            "value too long for type character(3)"
        );
        assert_eq!(
            v("abcd", 3).unwrap_err(),
            "value too long for type character varying(3)"
        );
        // Only ASCII whitespace may be cut.
        assert!(v("abc\u{a0}", 3).is_err());
    }

    #[test]
    fn lengths_and_names() {
        assert_eq!(Kind::Char.length(1), Ok(1));
        assert_eq!(Kind::VarChar.length(10_485_759), Ok(10_485_759));
        let message = "length for type character must be between 1 and 10485760";
        assert_eq!(Kind::Char.length(0).unwrap_err(), message);
        assert_eq!(Kind::Char.length(10_485_760).unwrap_err(), message);
        assert_eq!(Kind::VarChar.name(Some(30)), "varchar(30)");
        assert_eq!(Kind::Char.name(None), "char");
        assert_eq!(pad("a", Some(3)), "a  ");
        assert_eq!(pad("释", Some(2)), "释 ");
        assert_eq!(pad("", None), "");
    }

    #[test]
    fn rows_shown_pad_only_chars() {
        let text = |s: &str| Datum::Text(s.to_string());
        let types = [
            ScalarType::Char(Some(3)),
            ScalarType::VarChar(Some(3)),
            ScalarType::Char(None),
            ScalarType::Char(Some(2)),
        ];
        let row = vec![text("a"), text("b"), text("c"), Datum::Null];
        assert_eq!(
            pad_row(row, &types),
            vec![text("a  "), text("b"), text("c"), Datum::Null]
        );
        let column = |typ| Column {
            name: "x".into(),
            typ,
            nullable: true,
        };
        assert_eq!(shown(&[column(ScalarType::Text)]), Vec::new());
        let both = [column(ScalarType::Text), column(ScalarType::Char(None))];
        assert_eq!(shown(&both), vec![ScalarType::Text, ScalarType::Char(None)]);
    }
}
