//! A string read as an `interval`, exactly as the real system's
//! `parse_interval_w_disambiguator` and `build_parsed_datetime_interval`
//! read it (its `strconv.rs` and `adt/datetime.rs`, read for the facts):
//! the string is cut into tokens (`tokens`), the tokens into parts at
//! spaces, each part given a format (SQL-standard `1-2`, `3`, `4:05:06.7`
//! from a leading field, or PostgreSQL-style `1.5 days` of one field), a
//! number alone taking the field of the part after it, a day before a
//! time, or the qualifier's last field when it is last; each part then
//! writes its fields (`fields`), and the fields are summed, with the real
//! system's texts for every failure.

use std::collections::VecDeque;

use super::super::quoted;
use super::fields::{Fields, Value};
use super::tokens::{tokenize, trim_delims_and_colons, Field, Token};
use super::Interval;
use Field::*;

/// `s` read as an `interval` with no qualifier, with the real system's
/// texts.
pub fn parse_interval(s: &str) -> Result<Interval, String> {
    parse_interval_by(s, None, Second)
}

/// `s` read with `leading` (an interval qualifier's leading `HOUR` or
/// `MINUTE`, which says what `a:b` is) and `last` (its last field, which
/// says what a number last and alone is): the real system's
/// `parse_interval_w_disambiguator`.
pub fn parse_interval_by(s: &str, leading: Option<Field>, last: Field) -> Result<Interval, String> {
    build(s, leading, last)
        .and_then(|fields| fields.compute())
        .map_err(|detail| {
            format!(
                "invalid input syntax for type interval: {detail}: {}",
                quoted(s)
            )
        })
}

pub(in crate::repr) type Part = VecDeque<Token>;

/// How a part is read, from which field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::repr) enum Format {
    SqlStandard(Field),
    PostgreSql(Field),
}

const CANNOT_DETERMINE: &str = "Cannot determine format of all parts";

/// The real system's `build_parsed_datetime_interval`.
fn build(value: &str, leading: Option<Field>, last: Field) -> Result<Fields, String> {
    let mut parts: VecDeque<Part> = VecDeque::new();
    let mut buffer = Part::new();
    for t in tokenize(value.trim())? {
        match t {
            Token::Delim => {
                if !buffer.is_empty() {
                    parts.push_back(std::mem::take(&mut buffer));
                }
            }
            // A colon leading a part is dropped.
            Token::Colon if buffer.is_empty() => {}
            t => buffer.push_back(t),
        }
    }
    if !buffer.is_empty() {
        parts.push_back(buffer);
    }
    let mut annotated: Vec<(Format, Part)> = Vec::new();
    while let Some(part) = parts.pop_front() {
        let mut format = determine_format(&part, leading)?;
        if format.is_none() {
            format = match parts.pop_front() {
                Some(next) => match determine_format(&next, None)? {
                    Some(Format::SqlStandard(Year | Month | Day)) => None,
                    // A number before a time is a count of days.
                    Some(Format::SqlStandard(f)) => {
                        annotated.push((Format::SqlStandard(f), next));
                        Some(Format::PostgreSql(Day))
                    }
                    // The next part's unit word, which this number takes.
                    next_format => next_format,
                },
                None => Some(Format::PostgreSql(last)),
            };
        }
        let Some(format) = format else {
            return Err(format!(
                "{CANNOT_DETERMINE}. Add explicit time components, e.g. \
                 INTERVAL '1 day' or INTERVAL '1' DAY"
            ));
        };
        annotated.push((format, part));
    }
    let mut fields = Fields::default();
    for (format, mut part) in annotated {
        match format {
            Format::SqlStandard(f) => {
                fill_sql_standard(&mut part, f, &mut fields)?;
                fields.bounds(f)?;
            }
            Format::PostgreSql(f) => {
                let expected = [
                    Token::Num(0, 1),
                    Token::Dot,
                    Token::Nanos(0),
                    Token::TimeUnit(Year),
                ];
                let sign = take_sign(&mut part);
                fill(&mut fields, &mut part, &expected, f, sign)?;
            }
        }
        while let Some(Token::TimeUnit(_)) = part.front() {
            part.pop_front();
        }
        if !part.is_empty() {
            let rest: String = part.iter().map(ToString::to_string).collect();
            return Err(format!("have unprocessed tokens {}", rest.trim_end()));
        }
    }
    Ok(fields)
}

/// The real system's `determine_format_w_datetimefield`: a part's format,
/// or `None` where it is a number alone (or a unit word naming no field).
pub(in crate::repr) fn determine_format(
    part: &Part,
    leading: Option<Field>,
) -> Result<Option<Format>, String> {
    use Token::*;
    let mut toks = part.clone();
    take_sign(&mut toks);
    if let Some(Num(..)) = toks.front() {
        toks.pop_front();
    }
    Ok(match toks.pop_front() {
        None | Some(Delim) => None,
        Some(Dot) => {
            if let Some(Num(..) | Nanos(_)) = toks.front() {
                toks.pop_front();
            }
            match toks.pop_front() {
                Some(TimeUnit(f)) => Some(Format::PostgreSql(f)),
                _ => None,
            }
        }
        Some(Dash) => Some(Format::SqlStandard(Year)),
        Some(Colon) => {
            if let Some(Num(..)) = toks.front() {
                toks.pop_front();
            }
            match toks.pop_front() {
                Some(Colon | Delim) => Some(Format::SqlStandard(Hour)),
                Some(Dot) => Some(Format::SqlStandard(Minute)),
                // `a:b` is hours and minutes unless the qualifier leads
                // with a minute.
                None => Some(Format::SqlStandard(leading.unwrap_or(Hour))),
                _ => return Err(CANNOT_DETERMINE.into()),
            }
        }
        Some(TimeUnit(f)) => Some(Format::PostgreSql(f)),
        // None of the other unit words names a field of a day or less.
        Some(DateTimeUnit(_)) => None,
        _ => return Err(CANNOT_DETERMINE.into()),
    })
}

/// The real system's `fill_pdt_interval_sql`: `Y-M`, `D` or `H:M:S.F` from
/// `leading`, the unwritten fields of its group then written as zero.
fn fill_sql_standard(part: &mut Part, leading: Field, fields: &mut Fields) -> Result<(), String> {
    let group: &[Field] = match leading {
        Year | Month => &[Year, Month],
        Day => &[Day],
        Hour | Minute | Second => &[Hour, Minute, Second],
        Millennium | Century | Decade | Milliseconds | Microseconds => {
            return Err(format!(
                "Cannot specify {leading} field for SQL standard-style interval parts"
            ))
        }
    };
    if group.iter().any(|f| fields.get(*f).is_some()) {
        let names = match leading {
            Year | Month => "YEAR or MONTH",
            Day => "DAY",
            _ => "HOUR, MINUTE, SECOND",
        };
        return Err(format!("{names} field set twice"));
    }
    use Token::*;
    let expected: &[Token] = match leading {
        Year => &[Num(0, 1), Dash, Num(0, 1), Delim],
        Month => &[Num(0, 1), Delim],
        Day => &[Num(0, 1), Delim],
        Hour => &[Num(0, 1), Colon, Num(0, 1), Colon, Num(0, 1), Dot, Nanos(0)],
        Minute => &[Num(0, 1), Colon, Num(0, 1), Dot, Nanos(0)],
        _ => &[Num(0, 1), Dot, Nanos(0)],
    };
    let sign = take_sign(part);
    fill(fields, part, expected, leading, sign)?;
    for f in group {
        fields.default_unwritten(*f);
    }
    Ok(())
}

/// The real system's `fill_pdt_from_tokens`: the tokens of `part` matched
/// against `expected`, writing `field` and then each smaller field at
/// each separator.
pub(in crate::repr) fn fill(
    fields: &mut Fields,
    part: &mut Part,
    expected: &[Token],
    field: Field,
    sign: i64,
) -> Result<(), String> {
    use Token::*;
    let mut current = field;
    let mut i = 0usize;
    let mut unit: Option<Value> = None;
    let mut expected = expected.iter().peekable();
    while let (Some(actual), Some(wanted)) = (part.front(), expected.peek()) {
        match (actual, wanted) {
            (Dash, Dash) | (Colon, Colon) => {
                fields.write(current, unit.take())?;
                current = current.smaller();
            }
            (Delim, Delim) => {
                fields.write(current, unit.take())?;
                current = current.smaller();
                part.pop_front();
                expected.next();
                i += 1;
                while let Some(Delim) = part.front() {
                    part.pop_front();
                }
                continue;
            }
            (TimeUnit(f), TimeUnit(_)) => {
                if unit.is_some() && *f != current {
                    return Err(format!(
                        "Invalid syntax at offset {i}: provided TimeUnit({f}) but expected TimeUnit({current})"
                    ));
                }
            }
            // No other unit word names a field of a day or less.
            (DateTimeUnit(u), TimeUnit(_)) => return Err(format!("unsupported unit {u}")),
            (Dot, Dot) => {}
            (Num(n, _), Num(..)) => {
                if unit.is_some() {
                    return Err(
                        "Invalid syntax; parts must be separated by '-', ':', or ' '".into(),
                    );
                }
                unit = Some(Value {
                    unit: signed(*n, sign)?,
                    fraction: 0,
                });
            }
            (Nanos(n), Nanos(_)) => unit.get_or_insert_with(Value::default).fraction = n * sign,
            (Num(n, _), Nanos(_)) => {
                // A number where a fraction goes: its nine leading digits.
                let width = n.checked_ilog10().map_or(0, |w| w + 1);
                let n = if width > 9 {
                    n / 10u64.pow(width - 9)
                } else {
                    n * 10u64.pow(9 - width)
                };
                unit.get_or_insert_with(Value::default).fraction = signed(n, sign)?;
            }
            (_, Num(..) | Dot | Nanos(_) | Delim) => {
                expected.next();
                continue;
            }
            (provided, wanted) => {
                return Err(format!(
                    "Invalid syntax at offset {i}: provided {provided:?} but expected {wanted:?}"
                ))
            }
        }
        i += 1;
        part.pop_front();
        expected.next();
    }
    trim_delims_and_colons(part);
    fields.write(current, unit)
}

/// `n` with `sign`, or the real system's text where it leaves an `i64`.
fn signed(n: u64, sign: i64) -> Result<i64, String> {
    i64::try_from(i128::from(n) * i128::from(sign)).map_err(|_| {
        format!("Unable to parse value {n} as a number: number too large to fit in target type")
    })
}

/// The real system's `trim_and_return_sign`.
fn take_sign(part: &mut Part) -> i64 {
    match part.front() {
        Some(Token::Dash) => {
            part.pop_front();
            -1
        }
        Some(Token::Plus) => {
            part.pop_front();
            1
        }
        _ => 1,
    }
}
