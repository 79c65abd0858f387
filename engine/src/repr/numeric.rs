//! `numeric` as the real system has it: an exact decimal of at most 39
//! significant digits and at most 39 places after the point, kept reduced
//! (no trailing zeros: `1.50` is `1.5`) and printed in standard notation
//! without a display scale. PostgreSQL keeps a display scale and prints
//! `avg` of 1 and 2 as `1.5000000000000000`; the real system prints `1.5`
//! (docs/semantics.md, "Where the real system and PostgreSQL differ").
//!
//! Kept as its digits, so that equal values are equal structs: the derived
//! `Eq` and `Hash` are the value's, and `Ord` compares values. `NaN` is one
//! value, above every number, as in the real system's `OrderedDecimal`.
//! Arithmetic goes through the real system's decimal library
//! (`repr/decimal.rs`); this type is what rows hold, as its rows hold a
//! reduced decimal.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// The most significant digits, and places after the point, a numeric has.
pub const MAX_PRECISION: usize = 39;

/// An exact decimal (see the module).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Numeric {
    negative: bool,
    /// How many significant digits (0 for zero).
    len: u8,
    /// The significant digits, most significant first, two to a byte
    /// (high nibble first); the last is not 0.
    digits: [u8; 20],
    /// The power of ten of the last significant digit.
    exponent: i16,
}

/// The `len` that marks `NaN`.
const NAN_LEN: u8 = u8::MAX;

impl Numeric {
    /// Zero.
    const ZERO: Numeric = Numeric {
        negative: false,
        len: 0,
        digits: [0; 20],
        exponent: 0,
    };

    /// Not a number: `'NaN'::numeric`.
    pub const NAN: Numeric = Numeric {
        negative: false,
        len: NAN_LEN,
        digits: [0; 20],
        exponent: 0,
    };

    /// Whether it is `NaN`.
    pub fn is_nan(&self) -> bool {
        self.len == NAN_LEN
    }

    /// Whether it is less than zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The value `±digits × 10^exponent` (digits most significant first),
    /// reduced; `None` beyond 39 significant digits or places.
    pub fn from_parts(negative: bool, digits: &[u8], exponent: i32) -> Option<Numeric> {
        Numeric::from_digits(negative, digits, exponent)
    }

    /// Its sign, significant digits (most significant first) and the power
    /// of ten of the last; `None` for `NaN`.
    pub fn parts(&self) -> Option<(bool, Vec<u8>, i32)> {
        (!self.is_nan()).then(|| (self.negative, self.digits(), i32::from(self.exponent)))
    }

    /// The value `±digits × 10^exponent` (digits most significant first),
    /// reduced; `None` beyond 39 significant digits or places.
    fn from_digits(negative: bool, digits: &[u8], mut exponent: i32) -> Option<Numeric> {
        let start = digits.iter().position(|d| *d != 0).unwrap_or(digits.len());
        let mut digits = &digits[start..];
        while let [rest @ .., 0] = digits {
            digits = rest;
            exponent += 1;
        }
        if digits.is_empty() {
            return Some(Numeric::ZERO);
        }
        if digits.len() > MAX_PRECISION || exponent < -(MAX_PRECISION as i32) {
            return None;
        }
        let mut n = Numeric {
            negative,
            len: digits.len() as u8,
            digits: [0; 20],
            exponent: i16::try_from(exponent).ok()?,
        };
        for (i, d) in digits.iter().enumerate() {
            n.digits[i / 2] |= d << if i % 2 == 0 { 4 } else { 0 };
        }
        Some(n)
    }

    /// The significant digits, most significant first.
    fn digits(&self) -> Vec<u8> {
        (0..self.len as usize)
            .map(|i| (self.digits[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0xf)
            .collect()
    }

    /// Reads standard notation (`-12.50`); `None` if it is not one, or
    /// has more digits than a numeric holds.
    pub fn parse(text: &str) -> Option<Numeric> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
        let all = int.bytes().chain(frac.bytes());
        if int.is_empty() && frac.is_empty() || !all.clone().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits: Vec<u8> = all.map(|b| b - b'0').collect();
        Numeric::from_digits(negative, &digits, -(frac.len() as i32))
    }

    /// `num / den` (`den` not 0) as the real system divides numerics:
    /// rounded to 39 significant digits, then to 39 places, each half away
    /// from zero, and reduced. Exact up to where it rounds.
    pub fn quotient(num: i128, den: i128) -> Numeric {
        assert!(den != 0, "a quotient by zero");
        let negative = (num < 0) != (den < 0);
        let (num, den) = (num.unsigned_abs(), den.unsigned_abs());
        // The integer part's digits, then as many fraction digits as the
        // 39 significant digits and the rounding digit after them need.
        let int = num / den;
        let mut digits: Vec<u8> = int.to_string().bytes().map(|b| b - b'0').collect();
        if int == 0 {
            digits.clear();
        }
        let mut rem = num % den;
        let mut places: i32 = 0;
        let significant = |digits: &[u8]| digits.iter().skip_while(|d| **d == 0).count();
        while rem != 0
            && (significant(&digits) <= MAX_PRECISION || places <= MAX_PRECISION as i32)
            && places <= 2 * MAX_PRECISION as i32 + 1
        {
            rem *= 10;
            digits.push((rem / den) as u8);
            rem %= den;
            places += 1;
        }
        let (digits, places) = round(&digits, places, MAX_PRECISION);
        let (digits, places) = round_places(&digits, places, MAX_PRECISION as i32);
        Numeric::from_digits(negative, &digits, -places).expect("rounded to fit")
    }

    /// `n` exactly: an `i128` has at most 39 digits (the real system's
    /// `sum` of `bigint`s).
    pub fn from_i128(n: i128) -> Numeric {
        Numeric::quotient(n, 1)
    }

    /// The size of [`Numeric::to_bytes`].
    pub const BYTES: usize = 24;

    /// Its bytes in a packed row: sign, length, digits, exponent.
    pub fn to_bytes(self) -> [u8; Self::BYTES] {
        let mut out = [0; Self::BYTES];
        out[0] = u8::from(self.negative);
        out[1] = self.len;
        out[2..22].copy_from_slice(&self.digits);
        out[22..].copy_from_slice(&self.exponent.to_le_bytes());
        out
    }

    /// The numeric [`Numeric::to_bytes`] made `bytes` from.
    pub fn from_bytes(bytes: [u8; Self::BYTES]) -> Numeric {
        let mut digits = [0; 20];
        digits.copy_from_slice(&bytes[2..22]);
        Numeric {
            negative: bytes[0] != 0,
            len: bytes[1],
            digits,
            exponent: i16::from_le_bytes([bytes[22], bytes[23]]),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.len == 0
    }

    /// The power of ten of the most significant digit (for comparing).
    fn magnitude(&self) -> i32 {
        i32::from(self.exponent) + i32::from(self.len) - 1
    }
}

/// `digits` (with `places` after the point) rounded half away from zero to
/// `precision` significant digits.
fn round(digits: &[u8], places: i32, precision: usize) -> (Vec<u8>, i32) {
    let start = digits.iter().position(|d| *d != 0).unwrap_or(digits.len());
    if digits.len() - start <= precision {
        return (digits.to_vec(), places);
    }
    let keep = start + precision;
    let dropped = digits.len() - keep;
    cut(digits, keep, places - dropped as i32)
}

/// `digits` (with `places` after the point) rounded half away from zero to
/// at most `max` places.
fn round_places(digits: &[u8], places: i32, max: i32) -> (Vec<u8>, i32) {
    if places <= max {
        return (digits.to_vec(), places);
    }
    let keep = digits.len() - (places - max) as usize;
    cut(digits, keep, max)
}

/// The first `keep` digits, rounded up when the next one is 5 or more.
fn cut(digits: &[u8], keep: usize, places: i32) -> (Vec<u8>, i32) {
    let up = digits.get(keep).is_some_and(|d| *d >= 5);
    let mut out = digits[..keep].to_vec();
    if up {
        let mut i = out.len();
        loop {
            if i == 0 {
                out.insert(0, 1);
                break;
            }
            i -= 1;
            if out[i] == 9 {
                out[i] = 0;
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    (out, places)
}

/// Ordered by value.
impl Ord for Numeric {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_nan(), other.is_nan()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        let sign = |n: &Numeric| match (n.is_zero(), n.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        };
        let by_sign = sign(self).cmp(&sign(other));
        if by_sign != Ordering::Equal || self.is_zero() {
            return by_sign;
        }
        let magnitude = self
            .magnitude()
            .cmp(&other.magnitude())
            .then_with(|| self.digits().cmp(&other.digits()));
        match self.negative {
            true => magnitude.reverse(),
            false => magnitude,
        }
    }
}

impl PartialOrd for Numeric {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Numeric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_nan() {
            return f.write_str("NaN");
        }
        if self.is_zero() {
            return f.write_str("0");
        }
        let digits: String = self.digits().iter().map(|d| (b'0' + d) as char).collect();
        let sign = if self.negative { "-" } else { "" };
        let exponent = i32::from(self.exponent);
        if exponent >= 0 {
            return write!(f, "{sign}{digits}{}", "0".repeat(exponent as usize));
        }
        let places = (-exponent) as usize;
        let digits = format!("{digits:0>width$}", width = places + 1);
        let (int, frac) = digits.split_at(digits.len() - places);
        write!(f, "{sign}{int}.{frac}")
    }
}

impl fmt::Debug for Numeric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Numeric({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Numeric {
        Numeric::parse(s).unwrap()
    }

    #[test]
    fn reduced_and_printed_without_a_scale() {
        assert_eq!(n("1.50").to_string(), "1.5");
        assert_eq!(n("-0.050").to_string(), "-0.05");
        assert_eq!(n("00120").to_string(), "120");
        assert_eq!(n("-0.00").to_string(), "0");
        assert_eq!(n("1.50"), n("1.5"));
        assert!(Numeric::parse("1.2.3").is_none());
        assert!(Numeric::parse("").is_none());
        assert!(Numeric::parse("1".repeat(40).as_str()).is_none());
    }

    #[test]
    fn ordered_by_value() {
        assert!(n("-1.5") < n("-1.25"));
        assert!(n("-0.5") < n("0"));
        assert!(n("0") < n("0.001"));
        assert!(n("1.25") < n("1.5"));
        assert!(n("2") > n("1.99"));
        assert!(n("100") > n("99.9"));
        assert!(n("-100") < n("-99.9"));
        assert!(Numeric::NAN > n(&"9".repeat(39)) && Numeric::NAN == Numeric::NAN);
        let nan = Numeric::from_bytes(Numeric::NAN.to_bytes());
        assert_eq!((nan, nan.to_string()), (Numeric::NAN, "NaN".into()));
    }

    #[test]
    fn quotients_as_the_real_system_divides() {
        let q = |a, b| Numeric::quotient(a, b).to_string();
        assert_eq!(q(7, 4), "1.75");
        assert_eq!(q(3, 2), "1.5");
        assert_eq!(q(24690, 2), "12345");
        assert_eq!(q(7, 3), "2.33333333333333333333333333333333333333");
        assert_eq!(q(-7, 3), "-2.33333333333333333333333333333333333333");
        assert_eq!(q(2, 3), "0.666666666666666666666666666666666666667");
        assert_eq!(q(20, 11), "1.81818181818181818181818181818181818182");
        assert_eq!(q(1, 11), "0.090909090909090909090909090909090909091");
        assert_eq!(q(0, 5), "0");
        // Beyond 39 places, the places limit rounds.
        assert_eq!(
            q(1, 7_000_000_000_000_000_000),
            "0.000000000000000000142857142857142857143"
        );
        assert_eq!(
            q(i128::from(i64::MAX) * 2, 3),
            "6148914691236517204.66666666666666666667"
        );
    }
}
