//! The fields an interval string has written (the real system's
//! `ParsedDateTime` for an interval, its `adt/datetime.rs` read for the
//! facts): each written at most once, the bounds of an SQL-standard part,
//! and the months, days and microseconds summed from the largest field to
//! the smallest (`compute_interval`), with its texts for every failure.

use super::tokens::{Field, FIELDS};
use super::Interval;
use Field::*;

/// A field's value: its whole units and its fraction in billionths,
/// both signed (`DateTimeFieldValue`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(in crate::repr) struct Value {
    pub unit: i64,
    pub fraction: i64,
}

const BILLION: i64 = 1_000_000_000;

/// The fields written so far.
#[derive(Default)]
pub(in crate::repr) struct Fields([Option<Value>; 11]);

impl Fields {
    pub fn get(&self, f: Field) -> Option<Value> {
        self.0[f.index()]
    }

    /// Writes zero to `f` if nothing is written there yet (an SQL-standard
    /// part's unwritten members, which no later part may write).
    pub fn default_unwritten(&mut self, f: Field) {
        if self.get(f).is_none() {
            self.0[f.index()] = Some(Value::default());
        }
    }

    /// The real system's `write_field_iff_none`.
    pub fn write(&mut self, f: Field, value: Option<Value>) -> Result<(), String> {
        let Some(v) = value else { return Ok(()) };
        if self.get(f).is_some() {
            return Err(format!("{f} field set twice"));
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
            return Err(
                "Cannot set MILLISECONDS or MICROSECONDS field if SECOND field has a fraction component"
                    .into(),
            );
        }
        self.0[f.index()] = Some(v);
        Ok(())
    }

    /// The real system's `check_interval_bounds` after an SQL-standard
    /// part led by `d`.
    pub fn bounds(&self, d: Field) -> Result<(), String> {
        match d {
            Millennium | Century | Decade | Year | Month => {
                if let Some(month) = self.get(Month) {
                    if !(-12..=12).contains(&month.unit) {
                        return Err(format!("MONTH must be [-12, 12], got {}", month.unit));
                    }
                }
            }
            Hour | Minute | Second | Milliseconds | Microseconds => self.time_bounds()?,
            Day => {}
        }
        Ok(())
    }

    fn time_bounds(&self) -> Result<(), String> {
        if let Some(minute) = self.get(Minute) {
            if !(-59..=59).contains(&minute.unit) {
                return Err(format!("MINUTE must be [-59, 59], got {}", minute.unit));
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
            return Err(format!("SECOND must be [-60, 60], got {seconds}"));
        }
        if !(-1_000_000_000..=1_000_000_000).contains(&nanos) {
            return Err(format!(
                "NANOSECOND must be [-1_000_000_000, 1_000_000_000], got {nanos}"
            ));
        }
        Ok(())
    }

    /// The real system's `compute_interval`: each field added in turn,
    /// largest first, a fraction spilling into the next smaller part.
    pub fn compute(&self) -> Result<Interval, String> {
        let months_overflow = || {
            format!(
                "Overflows maximum months; cannot exceed {}/{} months",
                i32::MAX,
                i32::MIN
            )
        };
        let micros_overflow = || {
            format!(
                "Overflows maximum microseconds; cannot exceed {}/{} microseconds",
                i64::MAX,
                i64::MIN
            )
        };
        let (mut months, mut days, mut micros) = (0i32, 0i32, 0i64);
        for field in FIELDS {
            let Some(v) = self.get(field) else { continue };
            match field {
                Millennium | Century | Decade | Year => {
                    let per = field.months();
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
                            format!(
                                "Overflows maximum seconds; cannot exceed {}/{} days",
                                i32::MAX,
                                i32::MIN
                            )
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
                            format!(
                                "Overflows maximum days; cannot exceed {}/{} days",
                                i32::MAX,
                                i32::MIN
                            )
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
