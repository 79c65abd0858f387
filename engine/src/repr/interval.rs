//! `interval` as the real system has it (its `repr/src/adt/interval.rs`,
//! `adt/datetime.rs` and `strconv.rs`, read for the facts): months, days
//! and microseconds kept apart, ordered and compared field by field (so
//! `'1 month'` is not `'30 days'`, and `'1 month'` sorts after `'100
//! days'`), shown as its `Display`, and read from text.
//!
//! The real system's interval reader is read here whole, exactly as it
//! reads (`interval::parse`): PostgreSQL-style parts (`1 year`, `-1.5
//! days`, `2mons`, every spelling of its `DateTimeField`), SQL-standard
//! parts (`1-2` years and months, `1 2:03:04.5` a day and a time, `3:04`
//! hours and minutes, `3:04.5` minutes and seconds), a number alone
//! taking its field from the part after it or, last, from the qualifier,
//! and the real system's texts for everything it does not take (an ISO
//! 8601 `P1Y` is its `unknown units P`, a `week` its `Cannot determine
//! format`). An interval literal's qualifier (`INTERVAL '1-2' YEAR TO
//! MONTH`, `SECOND(3)`) reads the string by its fields and then cuts the
//! fields above its first and below its last (`truncate_high_fields`,
//! `truncate_low_fields`), rounding to a fractional-second precision.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::decimal::Dec;

const MICROS_PER_DAY: i64 = 86_400_000_000;

/// An `interval`: months, days and microseconds, none carried into
/// another. The field order is the real system's, and so is the derived
/// order: by months, then days, then microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Interval {
    pub months: i32,
    pub days: i32,
    pub micros: i64,
}

impl Interval {
    pub const fn new(months: i32, days: i32, micros: i64) -> Interval {
        Interval {
            months,
            days,
            micros,
        }
    }

    /// The whole interval in microseconds at 30 days a month and 24 hours
    /// a day: PostgreSQL's measure for comparing intervals, which the real
    /// system does not use (only the mutation `interval-compare-as-duration`
    /// compares by it).
    pub fn duration_micros(self) -> i128 {
        (i128::from(self.months) * 30 + i128::from(self.days)) * i128::from(MICROS_PER_DAY)
            + i128::from(self.micros)
    }

    /// Every field negated, or `None` where one is its type's minimum.
    pub fn checked_neg(self) -> Option<Interval> {
        Some(Interval::new(
            self.months.checked_neg()?,
            self.days.checked_neg()?,
            self.micros.checked_neg()?,
        ))
    }

    /// Field by field, or `None` where one overflows.
    pub fn checked_add(self, other: Interval) -> Option<Interval> {
        Some(Interval::new(
            self.months.checked_add(other.months)?,
            self.days.checked_add(other.days)?,
            self.micros.checked_add(other.micros)?,
        ))
    }

    /// Multiplied by `factor` as the real system's `checked_mul` does.
    pub fn checked_mul(self, factor: f64) -> Option<Interval> {
        self.scaled(factor, |a, b| a * b)
    }

    /// Divided by `divisor` as the real system's `checked_div` does (the
    /// caller refuses a zero divisor first).
    pub fn checked_div(self, divisor: f64) -> Option<Interval> {
        self.scaled(divisor, |a, b| a / b)
    }

    /// The real system's `checked_op`, in floating point: the fraction of
    /// the months spills into days at 30 days a month, the fraction of the
    /// days into microseconds at 24 hours a day, and each field is then
    /// truncated toward zero; a field that is not finite or leaves its
    /// type's range is an overflow. The microseconds are held to an
    /// `i64`'s range as its decimals compare (`Numeric::from(f64)`).
    fn scaled(self, by: f64, op: impl Fn(f64, f64) -> f64) -> Option<Interval> {
        let within_i32 =
            |v: f64| v.is_finite() && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX);
        let months = op(f64::from(self.months), by);
        if !within_i32(months) {
            return None;
        }
        let days = op(f64::from(self.days), by) + months.fract() * 30.0;
        if !within_i32(days) {
            return None;
        }
        #[allow(clippy::cast_precision_loss)]
        let micros = op(self.micros as f64, by) + days.fract() * MICROS_PER_DAY as f64;
        if !micros.is_finite()
            || Dec::from(micros) < Dec::from(i64::MIN)
            || Dec::from(micros) > Dec::from(i64::MAX)
        {
            return None;
        }
        #[allow(clippy::cast_possible_truncation)]
        Some(Interval::new(months as i32, days as i32, micros as i64))
    }
}

impl fmt::Display for Interval {
    /// The real system's `Display`: years and months (each `-` when the
    /// months are negative, plural when above one or negative), days
    /// (`+` after negative months when not negative themselves), then the
    /// time `HH:MM:SS` with the fraction's significant digits, shown when
    /// not zero or when nothing else is, with `-` when the microseconds
    /// are negative or `+` after negative days or months.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg_months = self.months < 0;
        let years = (self.months / 12).abs();
        let months = (self.months % 12).abs();
        let neg_days = self.days < 0;
        let days = self.days;
        let mut nanos = (self.micros % 1_000_000 * 1000).abs();
        let seconds = (self.micros / 1_000_000).abs();
        let (hours, minutes, seconds) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
        let plural = |n: i32| if n > 1 || neg_months { "s" } else { "" };
        if years > 0 {
            let sign = if neg_months { "-" } else { "" };
            write!(f, "{sign}{years} year{}", plural(years))?;
        }
        if months > 0 {
            let space = if years != 0 { " " } else { "" };
            let sign = if neg_months { "-" } else { "" };
            write!(f, "{space}{sign}{months} month{}", plural(months))?;
        }
        if days != 0 {
            let space = if years > 0 || months > 0 { " " } else { "" };
            let sign = if neg_months && !neg_days { "+" } else { "" };
            let s = if days != 1 { "s" } else { "" };
            write!(f, "{space}{sign}{days} day{s}")?;
        }
        let time = hours > 0 || minutes > 0 || seconds > 0 || nanos > 0;
        if (years == 0 && months == 0 && days == 0) || time {
            if years > 0 || months > 0 || days != 0 {
                f.write_str(" ")?;
            }
            if self.micros < 0 && time {
                f.write_str("-")?;
            } else if neg_days || (days == 0 && neg_months) {
                f.write_str("+")?;
            }
            write!(f, "{hours:02}:{minutes:02}:{seconds:02}")?;
            if nanos > 0 {
                let mut width = 9;
                while nanos % 10 == 0 {
                    width -= 1;
                    nanos /= 10;
                }
                write!(f, ".{nanos:0width$}")?;
            }
        }
        Ok(())
    }
}

pub(super) mod fields;
pub(super) mod parse;
pub(super) mod tokens;

pub use parse::{parse_interval, parse_interval_by};
pub use tokens::Field as IntervalField;

/// Whether `word` names a field of an interval (`years`, `hrs`, `d`), in
/// any case.
pub fn is_unit_word(word: &str) -> bool {
    IntervalField::named(word).is_some()
}

/// `s` read as the literal `INTERVAL 's' high TO low(precision)`, as the
/// real system's `plan_interval`: read with the qualifier's fields, then
/// the fields above `high` and below `low` cut away, the seconds rounded
/// to `precision` places (six when not given).
pub fn parse_qualified(
    s: &str,
    high: IntervalField,
    low: IntervalField,
    precision: Option<u64>,
) -> Result<Interval, String> {
    use IntervalField::{Hour, Minute};
    let leading = Some(high).filter(|f| matches!(f, Hour | Minute));
    let mut i = parse_interval_by(s, leading, low)?;
    i.truncate_high_fields(high);
    i.truncate_low_fields(low, precision)?;
    Ok(i)
}

impl Interval {
    /// The real system's `truncate_high_fields`: every unit above `f` cut
    /// away (`f` is a qualifier's first field, `YEAR` to `SECOND`).
    fn truncate_high_fields(&mut self, f: IntervalField) {
        use IntervalField::*;
        match f {
            Year => {}
            Month => self.months %= 12,
            Day => self.months = 0,
            Hour | Minute | Second => {
                self.months = 0;
                self.days = 0;
                self.micros %= f.larger().micros();
            }
            Millennium | Century | Decade | Milliseconds | Microseconds => {
                unreachable!("no qualifier leads with {f}")
            }
        }
    }

    /// The real system's `truncate_low_fields` with its rounding to the
    /// nearest: every unit below `f` cut away; at `SECOND`, the
    /// microseconds beyond `precision` places rounded half away from zero.
    fn truncate_low_fields(
        &mut self,
        f: IntervalField,
        precision: Option<u64>,
    ) -> Result<(), String> {
        use IntervalField::*;
        match f {
            Millennium | Century | Decade | Year => {
                let per = i32::try_from(f.months()).expect("at most 12,000");
                self.months -= self.months % per;
                self.days = 0;
                self.micros = 0;
            }
            Month => {
                self.days = 0;
                self.micros = 0;
            }
            Day => self.micros = 0,
            Hour | Minute | Milliseconds | Microseconds => {
                self.micros -= self.micros % f.micros();
            }
            Second => {
                let p = precision.unwrap_or(6);
                let places = u32::try_from(p)
                    .ok()
                    .filter(|p| *p <= 6)
                    .ok_or_else(|| format!("SECOND precision must be (0, 6), have SECOND({p})"))?;
                let unit = 10i64.pow(6 - places);
                let remainder = self.micros % unit;
                self.micros -= remainder;
                if places != 6 {
                    let digit = remainder / 10i64.pow(5 - places);
                    let rounded = if digit > 4 {
                        self.micros.checked_add(unit)
                    } else if digit < -4 {
                        self.micros.checked_sub(unit)
                    } else {
                        Some(self.micros)
                    };
                    self.micros = rounded
                        .ok_or_else(|| format!("interval field value out of range: \"{self}\""))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
