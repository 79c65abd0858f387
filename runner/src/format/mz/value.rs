//! One value as Materialize's sqllogictest runner formats it for comparison
//! (its `format_datum`, read for the facts): by the column's type letter
//! and the file's mode, not by the value's own type, so an `I` column
//! prints a `true` as `1` and a text as `0`, and an `R` column rounds a
//! numeric to three places in standard mode. A pairing its runner cannot
//! format (it panics) is an `Err` naming both, which the judge counts as
//! a wrong answer: the engine's value has another type than Materialize's.
//!
//! Also the simple query protocol's text form of a value (`simple`
//! records), where a boolean is `t` or `f`.

use crate::format::mz::layout::{Mode, Type};
use engine::repr::Datum;

/// `datum` in a column of type letter `typ`, as the runner compares it.
pub fn format(datum: &Datum, typ: Type, mode: Mode) -> Result<String, String> {
    let cannot = || {
        Err(format!(
            "Materialize's runner cannot format {datum:?} as `{}`",
            typ.letter()
        ))
    };
    Ok(match (typ, datum) {
        (_, Datum::Null) => "NULL".to_string(),
        (Type::Bool | Type::Text, Datum::Bool(b)) => b.to_string(),
        (Type::Integer, Datum::Bool(b)) => u8::from(*b).to_string(),
        // `{:.3}` on an integer prints it as it is.
        (Type::Integer | Type::Real | Type::Text, Datum::Int16(i)) => i.to_string(),
        (Type::Integer | Type::Real | Type::Text, Datum::Int32(i)) => i.to_string(),
        (Type::Integer | Type::Real | Type::Text, Datum::Int64(i)) => i.to_string(),
        // An unsigned integer has no `R` form: the runner's `UInt2` and
        // kin print only in an `I` column, and as their text in a `T` one.
        (Type::Integer | Type::Text, Datum::UInt16(u)) => u.to_string(),
        (Type::Integer | Type::Text, Datum::UInt32(u)) => u.to_string(),
        (Type::Integer | Type::Text, Datum::UInt64(u)) => u.to_string(),
        (Type::Text, Datum::Text(s)) if s.is_empty() => "(empty)".to_string(),
        (Type::Text, Datum::Text(s)) => s.clone(),
        // "This is so wrong, but sqlite needs it."
        (Type::Integer, Datum::Text(_)) => "0".to_string(),
        // `NaN` rounds and rescales to itself.
        (Type::Integer | Type::Real, Datum::Numeric(n)) if n.is_nan() => n.to_string(),
        (Type::Integer, Datum::Numeric(n)) => {
            let rounding = match mode {
                Mode::Standard => Rounding::Down,
                Mode::Cockroach => Rounding::HalfUp,
            };
            Decimal::read(&n.to_string()).round(0, rounding).to_string()
        }
        (Type::Real, Datum::Numeric(n)) => match mode {
            Mode::Standard => Decimal::read(&n.to_string())
                .round(3, Rounding::HalfUp)
                .to_string(),
            Mode::Cockroach => n.to_string(),
        },
        (Type::Text, Datum::Numeric(n)) => n.to_string(),
        // Rust's own formatting of the `f32` or `f64` the runner reads:
        // `as i64` (saturating, NaN 0) in an `I` column, three places
        // (`{:.3}`, `-0.000`, `NaN`, `inf`) in an `R` column in standard
        // mode and in a `T` column, and the shortest digits without an
        // exponent (`{}`, `-0`, `inf`) in an `R` column in cockroach mode.
        (Type::Integer, Datum::Float32(f)) => (f.get() as i64).to_string(),
        (Type::Integer, Datum::Float64(f)) => (f.get() as i64).to_string(),
        (Type::Real, Datum::Float32(f)) if mode == Mode::Cockroach => format!("{}", f.get()),
        (Type::Real, Datum::Float64(f)) if mode == Mode::Cockroach => format!("{}", f.get()),
        (Type::Real | Type::Text, Datum::Float32(f)) => format!("{:.3}", f.get()),
        (Type::Real | Type::Text, Datum::Float64(f)) => format!("{:.3}", f.get()),
        // Any other value is its text encoding in a `T` column (the
        // runner's `encode_text`: `format_date`, `format_timestamp`,
        // `format_timestamptz`, `format_time`, `format_interval`, `format_range`,
        // `format_jsonb`, `format_array`), and one
        // the runner cannot format in an `I` or `R` column.
        (
            Type::Text,
            Datum::Date(_)
            | Datum::Timestamp(_)
            | Datum::TimestampTz(_)
            | Datum::Time(_)
            | Datum::Interval(_)
            | Datum::Range(_)
            | Datum::Jsonb(_)
            | Datum::Array(_),
        ) => datum.to_string(),
        // Bytes are their text when they are UTF-8 (an empty one an
        // empty word, not `(empty)`), else Rust's list of their values
        // (`[222, 173]`): the runner's `str::from_utf8` or `{:?}`.
        (Type::Text, Datum::Bytes(b)) => match std::str::from_utf8(b) {
            Ok(s) => s.to_string(),
            Err(_) => format!("{b:?}"),
        },
        _ => return cannot(),
    })
}

/// `datum` as the simple query protocol sends it (PostgreSQL's text form).
pub fn simple_text(datum: &Datum) -> String {
    match datum {
        Datum::Null => "NULL".to_string(),
        Datum::Bool(true) => "t".to_string(),
        Datum::Bool(false) => "f".to_string(),
        other => other.to_string(),
    }
}

/// How a numeric is rounded to fewer places.
#[derive(Clone, Copy)]
enum Rounding {
    /// Toward zero (the runner truncates for sqlite's sake in standard mode).
    Down,
    /// Half away from zero (the decimal library's default context).
    HalfUp,
}

/// A decimal in standard notation, as digits and where the point is.
struct Decimal {
    negative: bool,
    /// Integer digits, then fraction digits.
    digits: Vec<u8>,
    /// How many of `digits` are after the point.
    scale: usize,
}

impl Decimal {
    /// Reads `-12.345` (the engine's numerics print in standard notation).
    fn read(text: &str) -> Decimal {
        let (negative, text) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let digits = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        Decimal {
            negative,
            digits,
            scale: frac.len(),
        }
    }

    /// Rounded to at most `places` fraction digits, and a zero is never
    /// negative (`munge_numeric`). A value with more places keeps all
    /// `places` of them, trailing zeros too, as the library's `rescale`
    /// does (`2.0004` is `2.000`); the engine's numerics have none else.
    fn round(mut self, places: usize, rounding: Rounding) -> Decimal {
        if self.scale > places {
            let cut = self.digits.len() - (self.scale - places);
            let up = match rounding {
                Rounding::Down => false,
                Rounding::HalfUp => self.digits[cut] >= 5,
            };
            self.digits.truncate(cut);
            self.scale = places;
            if up {
                let mut i = self.digits.len();
                loop {
                    if i == 0 {
                        self.digits.insert(0, 1);
                        break;
                    }
                    i -= 1;
                    if self.digits[i] == 9 {
                        self.digits[i] = 0;
                    } else {
                        self.digits[i] += 1;
                        break;
                    }
                }
            }
        }
        if self.digits.iter().all(|d| *d == 0) {
            self.negative = false;
        }
        self
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let point = self.digits.len() - self.scale;
        let int: String = self.digits[..point]
            .iter()
            .map(|d| (b'0' + d) as char)
            .collect();
        let frac: String = self.digits[point..]
            .iter()
            .map(|d| (b'0' + d) as char)
            .collect();
        let int = int.trim_start_matches('0');
        let sign = if self.negative { "-" } else { "" };
        let int = if int.is_empty() { "0" } else { int };
        match frac.is_empty() {
            true => write!(f, "{sign}{int}"),
            false => write!(f, "{sign}{int}.{frac}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::repr::Numeric;

    fn numeric(s: &str) -> Datum {
        Datum::Numeric(match s {
            "NaN" => Numeric::NAN,
            s => Numeric::parse(s).unwrap(),
        })
    }

    #[test]
    fn by_type_letter_not_by_value() {
        let f = |d: &Datum, t| format(d, t, Mode::Standard).unwrap();
        assert_eq!(f(&Datum::Bool(true), Type::Integer), "1");
        assert_eq!(f(&Datum::Bool(false), Type::Text), "false");
        assert_eq!(f(&Datum::Text("abc".into()), Type::Integer), "0");
        assert_eq!(f(&Datum::Text(String::new()), Type::Text), "(empty)");
        assert_eq!(f(&Datum::Int64(-7), Type::Real), "-7");
        assert_eq!(f(&Datum::Int16(-32768), Type::Integer), "-32768");
        assert_eq!(f(&Datum::Int16(7), Type::Real), "7");
        assert_eq!(f(&Datum::Int16(7), Type::Text), "7");
        assert_eq!(
            f(&Datum::UInt64(u64::MAX), Type::Integer),
            "18446744073709551615"
        );
        assert_eq!(f(&Datum::UInt16(7), Type::Text), "7");
        assert!(format(&Datum::UInt32(7), Type::Real, Mode::Standard).is_err());
        let date = engine::repr::time::parse_date("0044-03-15 BC").unwrap();
        assert_eq!(f(&Datum::Date(date), Type::Text), "0044-03-15 BC");
        let ts = engine::repr::time::parse_timestamp("2020-01-02 03:04:05.06").unwrap();
        assert_eq!(
            f(&Datum::Timestamp(ts), Type::Text),
            "2020-01-02 03:04:05.06"
        );
        assert!(format(&Datum::Date(date), Type::Integer, Mode::Standard).is_err());
        assert!(format(&Datum::Timestamp(ts), Type::Real, Mode::Standard).is_err());
        let iv = engine::repr::interval::parse_interval("-1 year 2 days -03:00:00").unwrap();
        assert_eq!(
            f(&Datum::Interval(iv), Type::Text),
            "-1 years +2 days -03:00:00"
        );
        assert!(format(&Datum::Interval(iv), Type::Integer, Mode::Standard).is_err());
        assert_eq!(f(&Datum::Null, Type::Bool), "NULL");
        assert!(format(&Datum::Int32(1), Type::Bool, Mode::Standard).is_err());
        assert!(format(&Datum::Text("t".into()), Type::Real, Mode::Standard).is_err());
    }

    #[test]
    fn numerics_by_mode() {
        let f = |s: &str, t, m| format(&numeric(s), t, m).unwrap();
        assert_eq!(f("2.3335", Type::Real, Mode::Standard), "2.334");
        assert_eq!(f("2.0004", Type::Real, Mode::Standard), "2.000");
        assert_eq!(f("-0.0001", Type::Real, Mode::Standard), "0.000");
        assert_eq!(f("NaN", Type::Real, Mode::Standard), "NaN");
        assert_eq!(f("NaN", Type::Integer, Mode::Standard), "NaN");
        assert_eq!(f("1.75", Type::Real, Mode::Standard), "1.75");
        assert_eq!(f("2.3335", Type::Real, Mode::Cockroach), "2.3335");
        assert_eq!(f("-1.9", Type::Integer, Mode::Standard), "-1");
        assert_eq!(f("-0.5", Type::Integer, Mode::Standard), "0");
        assert_eq!(f("-2.5", Type::Integer, Mode::Cockroach), "-3");
        assert_eq!(f("9.9996", Type::Real, Mode::Standard), "10.000");
        assert_eq!(f("0.333", Type::Text, Mode::Standard), "0.333");
    }

    #[test]
    fn floats_as_rust_formats_them() {
        use engine::repr::{F32, F64};
        let d = |f: f64| Datum::Float64(F64::new(f));
        let f = |d: &Datum, t, m| format(d, t, m).unwrap();
        assert_eq!(f(&d(2.5), Type::Real, Mode::Standard), "2.500");
        assert_eq!(f(&d(-0.0), Type::Real, Mode::Standard), "-0.000");
        assert_eq!(f(&d(f64::INFINITY), Type::Real, Mode::Standard), "inf");
        assert_eq!(f(&d(f64::NAN), Type::Text, Mode::Standard), "NaN");
        assert_eq!(
            f(&d(1e31), Type::Real, Mode::Cockroach),
            "10000000000000000000000000000000"
        );
        assert_eq!(f(&d(-0.0), Type::Real, Mode::Cockroach), "-0");
        assert_eq!(f(&d(-2.7), Type::Integer, Mode::Standard), "-2");
        assert_eq!(f(&d(f64::NAN), Type::Integer, Mode::Standard), "0");
        let r = Datum::Float32(F32::new(1.1));
        assert_eq!(f(&r, Type::Real, Mode::Cockroach), "1.1");
        assert_eq!(f(&r, Type::Real, Mode::Standard), "1.100");
    }

    #[test]
    fn simple_protocol_text() {
        assert_eq!(simple_text(&Datum::Bool(true)), "t");
        assert_eq!(simple_text(&Datum::Null), "NULL");
        assert_eq!(simple_text(&Datum::Int32(3)), "3");
    }
}
