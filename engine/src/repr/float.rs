//! `real` (float4) and `double precision` (float8) as the real system has
//! them: IEEE floats in a wrapper with a total order, so that a value can
//! be a key of an arrangement, a group or a DISTINCT row; the real
//! system's text form (its `strconv::format_float`: shortest round-trip
//! digits, `Infinity`, `NaN`, `-0`); and text read as a float, with its
//! out-of-range and syntax errors.
//!
//! The order, equality and hash are the value's bits after one
//! canonicalization: every NaN is the one positive quiet NaN (so NaN
//! equals itself and sorts after `Infinity`, as in PostgreSQL and the real
//! system). `-0` and `0` stay two values, `-0` just before `0`: the real
//! system keeps a float's bits in its rows, which its arrangements,
//! groups, DISTINCT and joins compare as bytes, so `-0` and `0` are two
//! keys there too (docs/semantics.md, "Floats"). SQL's comparison
//! operators, which hold `-0 = 0`, use [`F64::sql_cmp`] instead.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

macro_rules! float {
    ($name:ident, $f:ty, $sql:literal) => {
        #[doc = concat!("A `", $sql, "` (see the module).")]
        #[derive(Clone, Copy, Debug, Serialize, Deserialize)]
        pub struct $name($f);

        impl $name {
            /// `f`, with a NaN made the canonical one.
            pub fn new(f: $f) -> Self {
                $name(if f.is_nan() { <$f>::NAN } else { f })
            }

            pub fn get(self) -> $f {
                self.0
            }

            /// SQL's comparison: as the order, but `-0 = 0`.
            pub fn sql_cmp(self, other: Self) -> Ordering {
                if self.0 == other.0 {
                    Ordering::Equal
                } else {
                    self.cmp(&other)
                }
            }

            /// The value's bits (a NaN's are the canonical NaN's).
            pub fn to_bits(self) -> u64 {
                u64::from(self.0.to_bits())
            }

            /// Text read as a value, with the real system's errors.
            pub fn parse(s: &str) -> Result<Self, String> {
                let f = s
                    .trim()
                    .parse::<$f>()
                    .map_err(|_| format!("invalid input syntax for type {}: \"{s}\"", $sql))?;
                checked(s, f.is_infinite(), f == 0.0)
                    .map(|()| $name::new(f))
                    .map_err(|()| format!("\"{s}\" is out of range for type {}", $sql))
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.cmp(other) == Ordering::Equal
            }
        }

        impl Eq for $name {}

        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.total_cmp(&other.0)
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.0.to_bits().hash(state)
            }
        }

        /// The real system's text form (`strconv::format_float`): ryu's
        /// shortest round-trip digits, without a trailing `.0`, with a `+`
        /// in a positive exponent (`1e+22`), `Infinity`, `-Infinity`,
        /// `NaN` and `-0`.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let v = self.0;
                if v.is_nan() {
                    return f.write_str("NaN");
                }
                if v.is_infinite() {
                    return f.write_str(if v < 0.0 { "-Infinity" } else { "Infinity" });
                }
                if v == 0.0 {
                    return f.write_str(if v.is_sign_negative() { "-0" } else { "0" });
                }
                let mut buffer = ryu::Buffer::new();
                let s = buffer.format_finite(v);
                write_exponent_signed(f, s.strip_suffix(".0").unwrap_or(s))
            }
        }
    };
}

float!(F32, f32, "real");
float!(F64, f64, "double precision");

/// `s` with `+` after an `e` that a `-` does not follow.
fn write_exponent_signed(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    match s.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => write!(f, "{mantissa}e+{exp}"),
        _ => f.write_str(s),
    }
}

/// Whether a parsed value stands, as the real system's `parse_float`
/// decides: an infinity only if the text spells one (`inf`, `-Infinity`),
/// a zero only if the text is one (`0`, `-0.0`, `.0e10`); else the text
/// overflowed or underflowed the type.
fn checked(s: &str, infinite: bool, zero: bool) -> Result<(), ()> {
    let t = s.trim().to_ascii_lowercase();
    let t = t.strip_prefix(['-', '+']).unwrap_or(&t);
    let spelled_infinity = t.starts_with("inf");
    // `0+(\.0*)?` or `\.0+`, then the end or an exponent.
    let mantissa = t.split('e').next().unwrap_or("");
    let spelled_zero = match mantissa.split_once('.') {
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b == b'0'),
        Some((int, frac)) => {
            frac.bytes().all(|b| b == b'0')
                && int.bytes().all(|b| b == b'0')
                && (!int.is_empty() || !frac.is_empty())
        }
    };
    match (infinite && !spelled_infinity) || (zero && !spelled_zero) {
        true => Err(()),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_the_real_system() {
        let p = |f: f64| F64::new(f).to_string();
        assert_eq!(p(1.5), "1.5");
        assert_eq!(p(1.0), "1");
        assert_eq!(p(1e22), "1e+22");
        assert_eq!(p(1e-7), "1e-7");
        assert_eq!(p(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(p(-0.0), "-0");
        assert_eq!(p(f64::INFINITY), "Infinity");
        assert_eq!(p(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(p(-f64::NAN), "NaN");
        assert_eq!(F32::new(1.1).to_string(), "1.1");
        assert_eq!(F32::new(2147483600.0).to_string(), "2147483600");
    }

    #[test]
    fn nan_is_one_value_above_infinity_and_minus_zero_just_below_zero() {
        let (nan, neg_nan) = (F64::new(f64::NAN), F64::new(-f64::NAN));
        assert_eq!(nan, neg_nan);
        assert_eq!(nan.to_bits(), neg_nan.to_bits());
        assert!(nan > F64::new(f64::INFINITY));
        assert!(F64::new(-0.0) < F64::new(0.0));
        assert_eq!(F64::new(-0.0).sql_cmp(F64::new(0.0)), Ordering::Equal);
        assert_eq!(nan.sql_cmp(neg_nan), Ordering::Equal);
        assert_eq!(nan.sql_cmp(F64::new(1.0)), Ordering::Greater);
    }

    #[test]
    fn reads_text_as_the_real_system() {
        let r = |s: &str| F64::parse(s).map(|f| f.to_string());
        assert_eq!(r(" -inf "), Ok("-Infinity".into()));
        assert_eq!(r("+Infinity"), Ok("Infinity".into()));
        assert_eq!(r("nAn"), Ok("NaN".into()));
        assert_eq!(r("-.0"), Ok("-0".into()));
        assert_eq!(r("0.0e10"), Ok("0".into()));
        assert_eq!(
            r("1e-400").unwrap_err(),
            "\"1e-400\" is out of range for type double precision"
        );
        assert_eq!(
            r("1e400").unwrap_err(),
            "\"1e400\" is out of range for type double precision"
        );
        assert_eq!(
            r("e10").unwrap_err(),
            "invalid input syntax for type double precision: \"e10\""
        );
        assert_eq!(
            r("++0").unwrap_err(),
            "invalid input syntax for type double precision: \"++0\""
        );
        assert_eq!(
            F32::parse("1e70").unwrap_err(),
            "\"1e70\" is out of range for type real"
        );
        assert_eq!(
            F32::parse("2e40").unwrap_err(),
            "\"2e40\" is out of range for type real"
        );
    }
}
