//! `time`, a time of day without a date, as the real system has it (chrono's
//! `NaiveTime`; its `strconv.rs` `parse_time` and `format_time`,
//! `adt/datetime.rs` `build_parsed_datetime_time` and `compute_time`, read
//! for the facts): its reading, its rendering, and the wrapping around
//! midnight its arithmetic and its cast from an `interval` do.
//!
//! A `Time` is a count of microseconds since midnight, from `00:00:00` to
//! `23:59:59.999999`; it orders, hashes and packs as that count. A string
//! is read as the real system reads it: a time of day from its hour
//! (`H:M`, `H:M:S`, `H:M:S.F`, on the interval reader's tokens, the
//! fraction's first nine places kept), the fields' bounds checked, nothing
//! after it; no string at all is midnight. The real system keeps the
//! nanoseconds it reads, which the engine's microseconds cannot hold, and a
//! leap second (`23:59:60`) as a second of its own, which it orders apart
//! from the next minute: both are refused by name, never rounded into
//! another value.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::super::{quoted, unsupported};
use super::{fields, MICROS_PER_DAY};

/// A `time`: microseconds since midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Time(i64);

impl Time {
    /// Midnight, `00:00:00`.
    pub const MIN: Time = Time(0);
    /// `23:59:59.999999`, the last microsecond of a day.
    pub const MAX: Time = Time(MICROS_PER_DAY - 1);

    /// The time `micros` after midnight, if within a day.
    pub fn from_micros(micros: i64) -> Option<Time> {
        (0..MICROS_PER_DAY)
            .contains(&micros)
            .then_some(Time(micros))
    }

    /// The time `micros` after midnight, wrapped around midnight as
    /// chrono's `overflowing_add_signed` wraps it (any whole days
    /// dropped, a negative count counted back from midnight).
    pub fn wrapping(micros: i128) -> Time {
        let day = i128::from(MICROS_PER_DAY);
        Time(i64::try_from(micros.rem_euclid(day)).expect("within a day"))
    }

    /// Microseconds since midnight.
    pub fn micros(self) -> i64 {
        self.0
    }
}

impl fmt::Display for Time {
    /// `HH:MM:SS`, then the fraction of a second without its trailing
    /// zeros (none when whole): the real system's `format_time`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0 / 1_000_000;
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        write!(f, "{h:02}:{m:02}:{s:02}")?;
        let fraction = format!("{:06}", self.0 % 1_000_000);
        let fraction = fraction.trim_end_matches('0');
        if !fraction.is_empty() {
            write!(f, ".{fraction}")?;
        }
        Ok(())
    }
}

/// `s` read as a `time`, as the real system's `parse_time` reads it, with
/// its texts; nanoseconds that are not whole microseconds, and a leap
/// second, refused by name (see the module).
pub fn parse_time(s: &str) -> Result<Time, String> {
    let (hour, minute, second, nanos) = fields::time_of_day(s).map_err(|detail| {
        format!(
            "invalid input syntax for type time: {detail}: {}",
            quoted(s)
        )
    })?;
    if nanos >= 1_000_000_000 {
        return Err(unsupported(format!("leap second in time input: \"{s}\"")));
    }
    if nanos % 1000 != 0 {
        return Err(unsupported(format!("time input with nanoseconds: \"{s}\"")));
    }
    let seconds = i64::from(hour * 3600 + minute * 60 + second);
    Ok(Time(seconds * 1_000_000 + i64::from(nanos / 1000)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(s: &str) -> String {
        match parse_time(s) {
            Ok(t) => t.to_string(),
            Err(e) => e,
        }
    }

    #[test]
    fn times_read_and_render_as_the_real_systems() {
        assert_eq!(time("01:23:45"), "01:23:45");
        assert_eq!(time("1:2:3.789"), "01:02:03.789");
        assert_eq!(time("10:10:10.410"), "10:10:10.41");
        assert_eq!(time("11:12:59.9"), "11:12:59.9");
        assert_eq!(time("9::59.999999"), "09:00:59.999999");
        assert_eq!(time("23:59:59.999999"), "23:59:59.999999");
        assert_eq!(time("0:0"), "00:00:00");
        assert_eq!(time("12:30"), "12:30:00");
        assert_eq!(time("  12:30:01  "), "12:30:01");
        assert_eq!(time("12:00:00.1234560009"), "12:00:00.123456");
        assert_eq!(time(""), "00:00:00");
    }

    #[test]
    fn every_failure_is_the_real_systems_text() {
        let invalid = |detail: &str, s: &str| {
            format!("invalid input syntax for type time: {detail}: \"{s}\"")
        };
        assert_eq!(
            time("24:00:00"),
            invalid("HOUR must be [0, 23], got 24", "24:00:00")
        );
        assert_eq!(
            time("12:60:00"),
            invalid("MINUTE must be [0, 59], got 60", "12:60:00")
        );
        assert_eq!(
            time("12:00:61"),
            invalid("SECOND must be [0, 60], got 61", "12:00:61")
        );
        assert_eq!(time("10"), invalid("have unprocessed tokens 10", "10"));
        assert_eq!(
            time("12:00:00 5"),
            invalid("have unprocessed tokens 5", "12:00:00 5")
        );
        assert_eq!(time("abc"), invalid("unknown units abc", "abc"));
        assert_eq!(
            time("9::60.1"),
            invalid(
                "NANOSECOND must be [0, 1_000_000_000], got 1100000000",
                "9::60.1"
            )
        );
    }

    #[test]
    fn what_microseconds_cannot_hold_is_refused() {
        assert_eq!(
            time("9:59:60"),
            "unsupported: leap second in time input: \"9:59:60\""
        );
        assert_eq!(
            time("9::59.999999999"),
            "unsupported: time input with nanoseconds: \"9::59.999999999\""
        );
    }

    #[test]
    fn arithmetic_wraps_around_midnight() {
        let day = i128::from(MICROS_PER_DAY);
        assert_eq!(Time::wrapping(-1), Time::MAX);
        assert_eq!(Time::wrapping(day), Time::MIN);
        assert_eq!(Time::wrapping(-3 * day - 1), Time::MAX);
        assert_eq!(Time::wrapping(5 * day + 7).micros(), 7);
        assert_eq!(Time::from_micros(MICROS_PER_DAY), None);
        assert_eq!(Time::from_micros(-1), None);
    }
}
