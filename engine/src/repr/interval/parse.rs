//! A string read as an `interval`, in the forms `repr::interval` names,
//! each exactly as the real system's `build_parsed_datetime_interval` and
//! `compute_interval` read it (its `adt/datetime.rs`, read for the facts):
//! the string is cut into tokens, the tokens into parts at spaces, each
//! part given a field, the fields written once each, and the months, days
//! and microseconds summed from the largest field to the smallest, with
//! its texts for every failure of those forms.

use super::Interval;
use crate::repr::unsupported;

/// A field of an interval string, largest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Field {
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
    Microseconds,
}

use Field::*;

const FIELDS: [Field; 11] = [
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
    Microseconds,
];

impl Field {
    /// The real system's `DateTimeField::from_str`: every spelling.
    fn named(word: &str) -> Option<Field> {
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

    fn name(self) -> &'static str {
        match self {
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
        }
    }

    fn index(self) -> usize {
        FIELDS.iter().position(|f| *f == self).expect("a field")
    }

    /// Microseconds in one unit of a field from a day down.
    fn micros(self) -> i64 {
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

/// The words the real system's tokenizer knows but that name no field
/// (`DateTimeUnits`, lower case); any other word is its `unknown units`.
const OTHER_UNITS: [&str; 12] = [
    "epoch", "qtr", "quarter", "w", "week", "weeks", "dow", "doy", "isodow", "isodoy", "timezone",
    "t",
];

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Sign(i64),
    Num(u64),
    Nanos(i64),
    Colon,
    Dot,
    Unit(Field),
    Space,
}

/// A field's value: its whole units and its fraction in billionths,
/// both signed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Value {
    unit: i64,
    fraction: i64,
}

/// Why a string is not read: a refusal (a form outside those read) or
/// the real system's detail, which `parse_interval` wraps in its text.
enum Failure {
    Refused,
    Invalid(String),
}

type Parsed<T> = Result<T, Failure>;

fn invalid<T>(detail: impl Into<String>) -> Parsed<T> {
    Err(Failure::Invalid(detail.into()))
}

/// Whether `word` names a field of an interval (`years`, `hrs`, `d`), in
/// any case.
pub fn is_unit_word(word: &str) -> bool {
    Field::named(word).is_some()
}

/// `s` read as an `interval`, with the real system's texts, or refused.
pub fn parse_interval(s: &str) -> Result<Interval, String> {
    read(s.trim()).map_err(|failure| match failure {
        Failure::Refused => unsupported(format!("interval input format: \"{s}\"")),
        Failure::Invalid(detail) => {
            format!("invalid input syntax for type interval: {detail}: \"{s}\"")
        }
    })
}

fn read(s: &str) -> Parsed<Interval> {
    if s.is_empty() {
        return Err(Failure::Refused);
    }
    let tokens = tokenize(s)?;
    let parts: Vec<&[Token]> = tokens
        .split(|t| *t == Token::Space)
        .filter(|p| !p.is_empty())
        .collect();
    let mut fields = Fields::default();
    for (shape, part) in annotate(&parts)? {
        match shape {
            Shape::Time => fields.time(part)?,
            Shape::Count(field) => fields.count(part, field)?,
        }
    }
    fields.compute()
}

/// The tokens of `s`, as the real system's `tokenize_time_str` cuts
/// them, limited to the characters of the forms read.
fn tokenize(s: &str) -> Parsed<Vec<Token>> {
    let mut tokens = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut fraction = false;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &s[start..i];
            if fraction {
                // Nine places are kept, the rest dropped.
                let kept = &digits[..digits.len().min(9)];
                let scale = 10i64.pow(u32::try_from(9 - kept.len()).expect("at most nine"));
                let raw: i64 = kept.parse().expect("at most nine digits");
                tokens.push(Token::Nanos(raw * scale));
            } else {
                let n = digits.parse::<u64>().map_err(|_| Failure::Refused)?;
                tokens.push(Token::Num(n));
            }
            fraction = false;
            continue;
        }
        fraction = false;
        if c.is_ascii_alphabetic() {
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word = &s[start..i];
            match Field::named(word) {
                Some(field) => tokens.push(Token::Unit(field)),
                None if OTHER_UNITS.contains(&word.to_lowercase().as_str()) => {
                    return Err(Failure::Refused)
                }
                None => return invalid(format!("unknown units {word}")),
            }
            continue;
        }
        tokens.push(match c {
            b'+' => Token::Sign(1),
            b'-' => Token::Sign(-1),
            b':' => Token::Colon,
            b'.' => {
                fraction = true;
                Token::Dot
            }
            b' ' => Token::Space,
            _ => return Err(Failure::Refused),
        });
        i += 1;
    }
    Ok(tokens)
}

/// How a part is read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// `H:M` or `H:M:S`: the real system's SQL-standard part from HOUR.
    Time,
    /// A number of a field: its PostgreSQL-style part.
    Count(Field),
}

/// What a part is on its own: a number, a unit word or a time.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Number,
    Unit(Field),
    Time,
}

/// `part`'s kind, or a refusal for a shape outside the forms read.
fn kind(part: &[Token]) -> Parsed<Kind> {
    use Token::*;
    let unsigned = match part {
        [Sign(_), rest @ ..] => rest,
        _ => part,
    };
    match unsigned {
        [Unit(f)] if unsigned.len() == part.len() => Ok(Kind::Unit(*f)),
        [Num(_)] | [Num(_), Dot, Nanos(_)] => Ok(Kind::Number),
        [Num(_), Colon, Num(_)] | [Num(_), Colon, Num(_), Colon, Num(_)] => Ok(Kind::Time),
        [Num(_), Colon, Num(_), Colon, Num(_), Dot, Nanos(_)] => Ok(Kind::Time),
        _ => Err(Failure::Refused),
    }
}

/// Each part with how it is read, in the order the real system reads
/// them: a number takes the unit after it, is a day count before a time
/// (which is then read first), and is seconds when last.
fn annotate<'a>(parts: &[&'a [Token]]) -> Parsed<Vec<(Shape, &'a [Token])>> {
    let mut annotated = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i];
        i += 1;
        match kind(part)? {
            Kind::Time => annotated.push((Shape::Time, part)),
            // A unit with no number before it.
            Kind::Unit(_) => return Err(Failure::Refused),
            Kind::Number => {
                let Some(next) = parts.get(i) else {
                    annotated.push((Shape::Count(Second), part));
                    continue;
                };
                i += 1;
                match kind(next)? {
                    Kind::Unit(field) => annotated.push((Shape::Count(field), part)),
                    Kind::Time => {
                        annotated.push((Shape::Time, next));
                        annotated.push((Shape::Count(Day), part));
                    }
                    Kind::Number => {
                        return invalid(
                            "Cannot determine format of all parts. Add explicit time \
                             components, e.g. INTERVAL '1 day' or INTERVAL '1' DAY",
                        )
                    }
                }
            }
        }
    }
    Ok(annotated)
}

/// The fields written so far (the real system's `ParsedDateTime`).
#[derive(Default)]
struct Fields([Option<Value>; 11]);

impl Fields {
    fn get(&self, f: Field) -> Option<Value> {
        self.0[f.index()]
    }

    /// The real system's `write_field_iff_none`.
    fn write(&mut self, f: Field, value: Option<Value>) -> Parsed<()> {
        let Some(v) = value else { return Ok(()) };
        if self.get(f).is_some() {
            return invalid(format!("{} field set twice", f.name()));
        }
        let second_fraction = self.get(Second).is_some_and(|s| s.fraction != 0);
        let clash = match f {
            Second => {
                v.fraction != 0 && (self.get(Milliseconds).or(self.get(Microseconds))).is_some()
            }
            Milliseconds | Microseconds => second_fraction,
            _ => false,
        };
        if clash {
            return invalid(
                "Cannot set MILLISECONDS or MICROSECONDS field if SECOND field has a fraction component",
            );
        }
        self.0[f.index()] = Some(v);
        Ok(())
    }

    /// A signed whole number of a part.
    fn signed(n: u64, sign: i64) -> Parsed<i64> {
        i64::try_from(i128::from(n) * i128::from(sign)).or_else(|_| {
            invalid(format!(
                "Unable to parse value {n} as a number: number too large to fit in target type"
            ))
        })
    }

    /// A count of `field` (`1.5 days`, or a number by its place).
    fn count(&mut self, part: &[Token], field: Field) -> Parsed<()> {
        let (sign, rest) = split_sign(part);
        let value = match rest {
            [Token::Num(n)] => Value {
                unit: Fields::signed(*n, sign)?,
                fraction: 0,
            },
            [Token::Num(n), Token::Dot, Token::Nanos(f)] => Value {
                unit: Fields::signed(*n, sign)?,
                fraction: f * sign,
            },
            _ => unreachable!("a number part"),
        };
        self.write(field, Some(value))
    }

    /// A time `H:M` or `H:M:S.F`, its sign on every field, the fields it
    /// leaves out written as zero, then the minutes and seconds bounded.
    fn time(&mut self, part: &[Token]) -> Parsed<()> {
        if [Hour, Minute, Second]
            .iter()
            .any(|f| self.get(*f).is_some())
        {
            return invalid("HOUR, MINUTE, SECOND field set twice");
        }
        let (sign, rest) = split_sign(part);
        let numbers: Vec<u64> = rest
            .iter()
            .filter_map(|t| match t {
                Token::Num(n) => Some(*n),
                _ => None,
            })
            .collect();
        let fraction = match rest.last() {
            Some(Token::Nanos(f)) => f * sign,
            _ => 0,
        };
        for (i, (field, n)) in [Hour, Minute, Second].into_iter().zip(&numbers).enumerate() {
            let last = i + 1 == numbers.len();
            let value = Value {
                unit: Fields::signed(*n, sign)?,
                fraction: if last { fraction } else { 0 },
            };
            self.write(field, Some(value))?;
        }
        for field in [Hour, Minute, Second] {
            if self.get(field).is_none() {
                self.0[field.index()] = Some(Value::default());
            }
        }
        self.bounds()
    }

    /// The real system's `check_interval_bounds` from HOUR.
    fn bounds(&self) -> Parsed<()> {
        if let Some(minute) = self.get(Minute) {
            if !(-59..=59).contains(&minute.unit) {
                return invalid(format!("MINUTE must be [-59, 59], got {}", minute.unit));
            }
        }
        let (mut seconds, mut nanos) = (0, 0);
        if let Some(s) = self.get(Second) {
            seconds += s.unit;
            nanos += s.fraction;
        }
        if let Some(ms) = self.get(Milliseconds) {
            seconds += ms.unit / 1000;
            nanos += ms.unit % 1000 * 1_000_000;
            nanos += ms.fraction / 1000 % 1_000_000_000;
        }
        if let Some(us) = self.get(Microseconds) {
            seconds += us.unit / 1_000_000;
            nanos += us.unit % 1_000_000 * 1000;
            nanos += us.fraction / 1_000_000 % 1_000_000_000;
        }
        if !(-60..=60).contains(&seconds) {
            return invalid(format!("SECOND must be [-60, 60], got {seconds}"));
        }
        if !(-1_000_000_000..=1_000_000_000).contains(&nanos) {
            return invalid(format!(
                "NANOSECOND must be [-1_000_000_000, 1_000_000_000], got {nanos}"
            ));
        }
        Ok(())
    }

    /// The real system's `compute_interval`: each field added in turn,
    /// largest first, a fraction spilling into the next smaller part.
    fn compute(&self) -> Parsed<Interval> {
        let months_overflow = || {
            Failure::Invalid(format!(
                "Overflows maximum months; cannot exceed {}/{} months",
                i32::MAX,
                i32::MIN
            ))
        };
        let micros_overflow = || {
            Failure::Invalid(format!(
                "Overflows maximum microseconds; cannot exceed {}/{} microseconds",
                i64::MAX,
                i64::MIN
            ))
        };
        let (mut months, mut days, mut micros) = (0i32, 0i32, 0i64);
        for field in FIELDS {
            let Some(v) = self.get(field) else { continue };
            match field {
                Millennium | Century | Decade | Year => {
                    let per = match field {
                        Millennium => 12_000,
                        Century => 1200,
                        Decade => 120,
                        _ => 12,
                    };
                    let add = |months: i32, n: Option<i64>| {
                        n.and_then(|n| i32::try_from(n).ok())
                            .and_then(|n| months.checked_add(n))
                            .ok_or_else(months_overflow)
                    };
                    months = add(months, v.unit.checked_mul(per))?;
                    months = add(months, v.fraction.checked_mul(per).map(|f| f / BILLION))?;
                }
                Month => {
                    months = i32::try_from(v.unit)
                        .ok()
                        .and_then(|m| months.checked_add(m))
                        .ok_or_else(months_overflow)?;
                    let fraction_days = v.fraction * 30;
                    days = i32::try_from(fraction_days / BILLION)
                        .ok()
                        .and_then(|d| days.checked_add(d))
                        .ok_or_else(|| {
                            Failure::Invalid(format!(
                                "Overflows maximum seconds; cannot exceed {}/{} days",
                                i32::MAX,
                                i32::MIN
                            ))
                        })?;
                    let rest = i128::from(fraction_days % BILLION) * i128::from(Day.micros());
                    micros = div_and_round(rest)
                        .and_then(|us| micros.checked_add(us))
                        .ok_or_else(micros_overflow)?;
                }
                Day => {
                    days = i32::try_from(v.unit)
                        .ok()
                        .and_then(|d| days.checked_add(d))
                        .ok_or_else(|| {
                            Failure::Invalid(format!(
                                "Overflows maximum days; cannot exceed {}/{} days",
                                i32::MAX,
                                i32::MIN
                            ))
                        })?;
                    let rest = i128::from(v.fraction) * i128::from(Day.micros());
                    micros = div_and_round(rest)
                        .and_then(|us| micros.checked_add(us))
                        .ok_or_else(micros_overflow)?;
                }
                Hour | Minute | Second | Milliseconds | Microseconds => {
                    let per = field.micros();
                    micros = v
                        .unit
                        .checked_mul(per)
                        .and_then(|us| micros.checked_add(us))
                        .ok_or_else(micros_overflow)?;
                    micros = v
                        .fraction
                        .checked_mul(per)
                        .and_then(|f| div_and_round(i128::from(f)))
                        .and_then(|us| micros.checked_add(us))
                        .ok_or_else(micros_overflow)?;
                }
            }
        }
        Ok(Interval::new(months, days, micros))
    }
}

const BILLION: i64 = 1_000_000_000;

/// `i` billionths as whole units, rounded by the first digit dropped
/// (half away from zero), as the real system's `div_and_round`.
fn div_and_round(i: i128) -> Option<i64> {
    let d = i128::from(BILLION);
    let mut result = i / d;
    let digit = (i / (d / 10)) % 10;
    if digit > 4 {
        result += 1;
    } else if digit < -4 {
        result -= 1;
    }
    i64::try_from(result).ok()
}

fn split_sign(part: &[Token]) -> (i64, &[Token]) {
    match part {
        [Token::Sign(s), rest @ ..] => (*s, rest),
        _ => (1, part),
    }
}
