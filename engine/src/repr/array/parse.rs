//! An array's text read as Materialize's `parse_array` reads it (its
//! `strconv.rs`, read for the facts): braces nest one level a
//! dimension, sub-arrays of one dimension have one length, an element is
//! quoted (`"a b"`, backslash escapes) or bare (trimmed, `NULL` in any
//! case a NULL unless a character of it was escaped), and a lower bound
//! (`[1:2]={1,2}`) is refused as the real system refuses it. Every error
//! is `invalid input syntax for type array: <detail>: "<input>"`.

use super::Array;
use crate::repr::Datum;

/// `s` read as an array whose elements `element` reads.
pub fn parse(s: &str, element: impl Fn(&str) -> Result<Datum, String>) -> Result<Array, String> {
    let fail = |detail: String| {
        format!(
            "invalid input syntax for type array: {detail}: \"{}\"",
            s.replace('"', "\\\"")
        )
    };
    let (raw, lengths) = Reader::new(s).read().map_err(fail)?;
    let mut elements = Vec::with_capacity(raw.len());
    for e in raw {
        elements.push(match e {
            None => Datum::Null,
            Some(text) => element(&text).map_err(fail)?,
        });
    }
    Array::new(elements, &lengths)
}

/// One dimension while it is read.
#[derive(Clone, Default)]
struct Dimension {
    /// Its length, once a sub-array of it closed.
    length: Option<usize>,
    /// Whether an element waits for its `,` or `}`.
    staged: bool,
    /// The elements committed since it was entered.
    committed: usize,
}

struct Reader<'a> {
    chars: Chars<'a>,
    dims: Vec<Dimension>,
    current: usize,
    sealed: bool,
    elements: Vec<Option<String>>,
    command: char,
}

type Read = (Vec<Option<String>>, Vec<usize>);

impl<'a> Reader<'a> {
    fn new(s: &'a str) -> Reader<'a> {
        Reader {
            chars: s.chars().peekable(),
            dims: Vec::new(),
            current: 0,
            sealed: false,
            elements: Vec::new(),
            command: '{',
        }
    }

    fn skip_whitespace(&mut self) {
        skip_whitespace(&mut self.chars);
    }

    fn read(mut self) -> Result<Read, String> {
        if self.chars.peek() == Some(&'[') {
            return Err("Specifying array lower bounds is not supported".into());
        }
        self.skip_whitespace();
        if self.chars.next_if_eq(&'{').is_none() {
            return Err("Array value must start with \"{\"".into());
        }
        let mut depth = 1;
        loop {
            self.skip_whitespace();
            match self.chars.next_if_eq(&'{') {
                Some(_) => depth += 1,
                None => break,
            }
        }
        self.dims = vec![Dimension::default(); depth];
        self.current = depth - 1;
        loop {
            self.skip_whitespace();
            match self.chars.peek().copied() {
                None if self.sealed => break,
                None => return Err("Unexpected end of input.".into()),
                Some(_) if self.sealed => return Err("Junk after closing right brace.".into()),
                Some(c) => self.command = c,
            }
            match self.command {
                '{' => {
                    self.chars.next();
                    self.enter()?
                }
                '}' => {
                    self.chars.next();
                    self.exit()?
                }
                ',' => {
                    self.chars.next();
                    self.commit(true)?
                }
                '"' => {
                    let e = quoted(&mut self.chars)?;
                    self.insert(Some(e))?
                }
                _ => {
                    let e = unquoted(&mut self.chars)?;
                    self.insert(e)?
                }
            }
        }
        if self.elements.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let lengths = self.dims.iter().map(|d| d.length.expect("closed"));
        Ok((self.elements, lengths.collect()))
    }

    fn unexpected(&self) -> String {
        format!("Unexpected \"{}\" character.", self.command)
    }

    fn enter(&mut self) -> Result<(), String> {
        if self.dims[self.current].staged {
            return Err(self.unexpected());
        }
        self.current += 1;
        if self.current >= self.dims.len() {
            return Err(NON_RECTILINEAR.into());
        }
        Ok(())
    }

    fn insert(&mut self, e: Option<String>) -> Result<(), String> {
        if self.current != self.dims.len() - 1 {
            return Err("Unexpected array element.".into());
        }
        self.stage()?;
        self.elements.push(e);
        Ok(())
    }

    fn stage(&mut self) -> Result<(), String> {
        let d = &mut self.dims[self.current];
        if d.staged {
            return Err("Unexpected array element.".into());
        }
        d.staged = true;
        Ok(())
    }

    fn commit(&mut self, require_staged: bool) -> Result<(), String> {
        let d = &mut self.dims[self.current];
        if !d.staged {
            return match require_staged || d.committed > 0 {
                true => Err(self.unexpected()),
                false => Ok(()),
            };
        }
        d.staged = false;
        d.committed += 1;
        Ok(())
    }

    fn exit(&mut self) -> Result<(), String> {
        self.commit(false)?;
        let d = &mut self.dims[self.current];
        match d.length {
            None => d.length = Some(d.committed),
            Some(l) if l != d.committed => return Err(NON_RECTILINEAR.into()),
            Some(_) => {}
        }
        d.committed = 0;
        if self.current == 0 {
            self.sealed = true;
            Ok(())
        } else {
            self.current -= 1;
            self.stage()
        }
    }
}

/// The characters of a text being read.
pub(in crate::repr) type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// Skips ASCII whitespace, as the real system's array and list readers do
/// between elements.
pub(in crate::repr) fn skip_whitespace(chars: &mut Chars) {
    while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {}
}

/// A quoted element, its escapes taken.
pub(in crate::repr) fn quoted(chars: &mut Chars) -> Result<String, String> {
    chars.next();
    let mut s = String::new();
    loop {
        match chars.next() {
            Some('\\') => match chars.next() {
                Some(c) => s.push(c),
                None => return Err("unterminated quoted string".into()),
            },
            Some('"') => return Ok(s),
            Some(c) => s.push(c),
            None => return Err("unterminated quoted string".into()),
        }
    }
}

/// A bare element up to its `,` or `}`, trailing whitespace trimmed;
/// `None` for NULL.
pub(in crate::repr) fn unquoted(chars: &mut Chars) -> Result<Option<String>, String> {
    let special = |c: char| matches!(c, '{' | '}' | ',' | '\\' | '"');
    let mut s = String::new();
    let mut escaped = false;
    let mut trimmed = 0;
    loop {
        match chars.peek().copied() {
            Some('\\') => {
                chars.next();
                match chars.next() {
                    Some(c) => {
                        escaped = true;
                        s.push(c);
                        trimmed = s.len();
                    }
                    None => return Err("unterminated element".into()),
                }
            }
            Some(',' | '}') if s.is_empty() => {
                return Err("malformed literal; missing element".into())
            }
            Some(',' | '}') => break,
            Some(c) if special(c) => {
                return Err(format!(
                    "malformed literal; must escape special character '{c}'"
                ))
            }
            Some(c) => {
                chars.next();
                s.push(c);
                if !c.is_ascii_whitespace() {
                    trimmed = s.len();
                }
            }
            None => return Err("unterminated element".into()),
        }
    }
    s.truncate(trimmed);
    Ok(match s.eq_ignore_ascii_case("NULL") && !escaped {
        true => None,
        false => Some(s),
    })
}

const NON_RECTILINEAR: &str =
    "Multidimensional arrays must have sub-arrays with matching dimensions.";
