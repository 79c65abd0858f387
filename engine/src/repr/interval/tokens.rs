//! The fields of an interval and the tokens of an interval string, as the
//! real system's `adt/datetime.rs` has them (`DateTimeField`,
//! `DateTimeUnits`, `TimeStrToken`, `tokenize_time_str`; read for the
//! facts): every spelling of a field, the other unit words it knows, and
//! the string cut into numbers, fractions, punctuation and words, with its
//! texts for a string that cannot be cut.

use std::collections::VecDeque;
use std::fmt;

/// The field enum and the array of its variants in order, from one list.
macro_rules! fields {
    ($($field:ident),*) => {
        /// A field of an interval, largest first (the real system's
        /// `DateTimeField`, whose derived order is the reverse).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Field {
            $($field),*
        }

        pub(super) const FIELDS: [Field; 11] = [$(Field::$field),*];
    };
}

fields!(
    Millennium,
    Century,
    Decade,
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    Milliseconds,
    Microseconds
);

use Field::*;

impl Field {
    /// The real system's `DateTimeField::from_str`: every spelling.
    pub fn named(word: &str) -> Option<Field> {
        Some(match word.to_uppercase().as_str() {
            "MILLENNIUM" | "MILLENNIUMS" | "MILLENNIA" | "MIL" | "MILS" => Millennium,
            "CENTURY" | "CENTURIES" | "CENT" | "C" => Century,
            "DECADE" | "DECADES" | "DEC" | "DECS" => Decade,
            "YEAR" | "YEARS" | "YR" | "YRS" | "Y" => Year,
            "MONTH" | "MONTHS" | "MON" | "MONS" => Month,
            "DAY" | "DAYS" | "D" => Day,
            "HOUR" | "HOURS" | "HR" | "HRS" | "H" => Hour,
            "MINUTE" | "MINUTES" | "MIN" | "MINS" | "M" => Minute,
            "SECOND" | "SECONDS" | "SEC" | "SECS" | "S" => Second,
            "MILLISECOND" | "MILLISECONDS" | "MILLISECON" | "MILLISECONS" | "MSECOND"
            | "MSECONDS" | "MSEC" | "MSECS" | "MS" => Milliseconds,
            "MICROSECOND" | "MICROSECONDS" | "MICROSECON" | "MICROSECONS" | "USECOND"
            | "USECONDS" | "USEC" | "USECS" | "US" => Microseconds,
            _ => return None,
        })
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// The next smaller field (the real system's `next_smallest`, which
    /// panics below microseconds: its callers never go there).
    pub(super) fn smaller(self) -> Field {
        FIELDS[self.index() + 1]
    }

    /// The next larger field (`next_largest`).
    pub(super) fn larger(self) -> Field {
        FIELDS[self.index() - 1]
    }

    /// Months in one unit of a field from a year up.
    pub(super) fn months(self) -> i64 {
        match self {
            Millennium => 12_000,
            Century => 1200,
            Decade => 120,
            Year => 12,
            _ => unreachable!("a field of a year or more"),
        }
    }

    /// Microseconds in one unit of a field from a day down.
    pub(super) fn micros(self) -> i64 {
        match self {
            Day => 86_400_000_000,
            Hour => 3_600_000_000,
            Minute => 60_000_000,
            Second => 1_000_000,
            Milliseconds => 1000,
            Microseconds => 1,
            _ => unreachable!("a field of a day or less"),
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Millennium => "MILLENNIUM",
            Century => "CENTURY",
            Decade => "DECADE",
            Year => "YEAR",
            Month => "MONTH",
            Day => "DAY",
            Hour => "HOUR",
            Minute => "MINUTE",
            Second => "SECOND",
            Milliseconds => "MILLISECONDS",
            Microseconds => "MICROSECONDS",
        })
    }
}

/// The unit words the real system's tokenizer knows that name no field
/// (its `DateTimeUnits` less those that are fields, and less those with
/// an underscore, which its tokenizer never gathers into one word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::repr) enum Unit {
    Epoch,
    Quarter,
    Week,
    DayOfWeek,
    DayOfYear,
    IsoDayOfWeek,
    IsoDayOfYear,
    Timezone,
}

impl Unit {
    fn named(word: &str) -> Option<Unit> {
        Some(match word.to_lowercase().as_str() {
            "epoch" => Unit::Epoch,
            "qtr" | "quarter" => Unit::Quarter,
            "w" | "week" | "weeks" => Unit::Week,
            "dow" => Unit::DayOfWeek,
            "doy" => Unit::DayOfYear,
            "isodow" => Unit::IsoDayOfWeek,
            "isodoy" => Unit::IsoDayOfYear,
            "timezone" => Unit::Timezone,
            _ => return None,
        })
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Epoch => "epoch",
            Unit::Quarter => "quarter",
            Unit::Week => "week",
            Unit::DayOfWeek => "dow",
            Unit::DayOfYear => "doy",
            Unit::IsoDayOfWeek => "isodow",
            Unit::IsoDayOfYear => "isodoy",
            Unit::Timezone => "timezone",
        })
    }
}

/// A token of an interval string (the real system's `TimeStrToken`, with
/// its variant names and fields, which its error texts print).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::repr) enum Token {
    Dash,
    Colon,
    Dot,
    Plus,
    /// A number and how many digits it was written with.
    Num(u64, usize),
    /// A fraction in billionths.
    Nanos(i64),
    TimeUnit(Field),
    DateTimeUnit(Unit),
    DateTimeDelimiter,
    /// A space or any other punctuation.
    Delim,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Dash => write!(f, "-"),
            Token::Colon => write!(f, ":"),
            Token::Dot => write!(f, "."),
            Token::Plus => write!(f, "+"),
            Token::Num(n, digits) => write!(f, "{:01$}", n, digits - 1),
            Token::Nanos(n) => write!(f, "{n}"),
            Token::TimeUnit(field) => write!(f, "{field:?}"),
            Token::DateTimeUnit(unit) => write!(f, "{unit}"),
            Token::DateTimeDelimiter => write!(f, "T"),
            Token::Delim => write!(f, " "),
        }
    }
}

/// The tokens of `value` (already trimmed), as the real system's
/// `tokenize_time_str` cuts them: a fraction keeps nine places, a word is
/// a field, `T`, or another unit word, and leading spaces and colons go.
pub(in crate::repr) fn tokenize(value: &str) -> Result<VecDeque<Token>, String> {
    let mut tokens = VecDeque::new();
    let mut digits = String::new();
    let mut word = String::new();
    let mut fraction = false;
    for (i, c) in value.chars().enumerate() {
        match c {
            '+' | '-' | ':' | '.' => {
                flush_number(&mut digits, i, &mut fraction, &mut tokens)?;
                flush_word(&mut word, &mut tokens)?;
                tokens.push_back(match c {
                    '+' => Token::Plus,
                    '-' => Token::Dash,
                    ':' => Token::Colon,
                    _ => Token::Dot,
                });
                fraction = c == '.';
            }
            c if c.is_ascii_digit() => {
                flush_word(&mut word, &mut tokens)?;
                digits.push(c);
            }
            c if c.is_ascii_alphabetic() => {
                flush_number(&mut digits, i, &mut fraction, &mut tokens)?;
                word.push(c);
            }
            c if c.is_ascii_whitespace() || c.is_ascii_punctuation() => {
                flush_number(&mut digits, i, &mut fraction, &mut tokens)?;
                flush_word(&mut word, &mut tokens)?;
                tokens.push_back(Token::Delim);
            }
            _ => return Err(format!("Invalid character at offset {i} in {value}: {c:?}")),
        }
    }
    flush_number(&mut digits, value.len(), &mut fraction, &mut tokens)?;
    flush_word(&mut word, &mut tokens)?;
    trim_delims_and_colons(&mut tokens);
    Ok(tokens)
}

/// The digits gathered, as a number or (after a dot) a fraction.
fn flush_number(
    digits: &mut String,
    i: usize,
    fraction: &mut bool,
    tokens: &mut VecDeque<Token>,
) -> Result<(), String> {
    if !digits.is_empty() {
        if *fraction {
            digits.truncate(9);
            let len = u32::try_from(digits.len()).expect("at most nine");
            let raw: i64 = digits.parse().expect("at most nine digits");
            tokens.push_back(Token::Nanos(raw * (1_000_000_000 / 10i64.pow(len))));
        } else {
            let n = digits
                .parse()
                .map_err(|e| format!("Unable to parse value as a number at index {i}: {e}"))?;
            tokens.push_back(Token::Num(n, digits.len()));
        }
        digits.clear();
    }
    *fraction = false;
    Ok(())
}

/// The letters gathered, as a word.
fn flush_word(word: &mut String, tokens: &mut VecDeque<Token>) -> Result<(), String> {
    if !word.is_empty() {
        tokens.push_back(if word == "T" || word == "t" {
            Token::DateTimeDelimiter
        } else if let Some(field) = Field::named(word) {
            Token::TimeUnit(field)
        } else if let Some(unit) = Unit::named(word) {
            Token::DateTimeUnit(unit)
        } else {
            return Err(format!("unknown units {word}"));
        });
        word.clear();
    }
    Ok(())
}

/// The real system's `ltrim_delim_or_colon`.
pub(in crate::repr) fn trim_delims_and_colons(tokens: &mut VecDeque<Token>) {
    while matches!(tokens.front(), Some(Token::Colon | Token::Delim)) {
        tokens.pop_front();
    }
}
