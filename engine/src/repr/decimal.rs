//! The real system's decimal arithmetic, bit for bit: its library (`dec`,
//! MaterializeInc's binding of libdecnumber), its datum context (39 digits,
//! adjusted exponents -39 to 38, rounding half up: `cx_datum`), its
//! `munge_numeric` and `rescale` (its `repr/src/adt/numeric.rs`, read for
//! the facts), and the way between a `Numeric`, which rows hold reduced,
//! and the library's `Decimal`, which the arithmetic works on.

use dec::{Context, Decimal};

use super::numeric::{Numeric, MAX_PRECISION};

/// The real system's `Numeric`: 13 units of 3 digits.
pub type Dec = Decimal<13>;

/// The real system's `cx_datum`: the context every numeric operation
/// runs in.
pub fn cx_datum() -> Context<Dec> {
    let mut cx = Context::<Dec>::default();
    let max = MAX_PRECISION as isize;
    cx.set_max_exponent(max - 1).expect("a valid exponent");
    cx.set_min_exponent(-max).expect("a valid exponent");
    cx
}

/// The digits a value needs: left of the point plus its scale, or its
/// places if they dominate (the real system's `get_precision`).
fn precision(n: &Dec) -> u32 {
    let e = n.exponent();
    if e >= 0 {
        n.digits() + e.unsigned_abs()
    } else {
        n.digits().max(e.unsigned_abs())
    }
}

/// The places after the point (the real system's `get_scale`).
fn scale(n: &Dec) -> u32 {
    u32::try_from(-n.exponent()).unwrap_or(0)
}

/// The real system's `munge_numeric`: a value past 39 digits rounded to
/// fewer places (an error if it has none to lose), and never `-0` or `-NaN`.
pub fn munge(n: &mut Dec) -> Result<(), String> {
    let current = precision(n);
    let max = MAX_PRECISION as u32;
    if current > max {
        if n.exponent() >= 0 {
            return Err(format!("numeric value {n} exceed maximum precision {max}"));
        }
        // The real system takes the scale as a `u8` first: past 255
        // places it fails (`'1e-307'::float8::numeric` overflows).
        let current_scale = u8::try_from(scale(n))
            .map_err(|_| format!("numeric value {n} exceed maximum precision {max}"))?;
        let places = u32::from(current_scale) - (current - max);
        rescale(n, u8::try_from(places).expect("at most 39 places"))?;
    }
    if (n.is_zero() || n.is_nan()) && n.is_negative() {
        cx_datum().neg(n);
    }
    Ok(())
}

/// The real system's `rescale`: `n` rounded (half up) to `places` places,
/// an error if that needs more than 39 digits.
pub fn rescale(n: &mut Dec, places: u8) -> Result<(), String> {
    let mut cx = cx_datum();
    cx.rescale(n, &Dec::from(-i32::from(places)));
    if cx.status().invalid_operation() || precision(n) > MAX_PRECISION as u32 {
        return Err(format!(
            "numeric value {n} exceed maximum precision {MAX_PRECISION}"
        ));
    }
    munge(n)
}

impl Numeric {
    /// The value as the library's decimal, as the real system reads one
    /// from a row: its significant digits and exponent.
    pub fn to_dec(self) -> Dec {
        let Some((negative, digits, exponent)) = self.parts() else {
            return Dec::nan();
        };
        let digits: String = match digits.is_empty() {
            true => "0".into(),
            false => digits.iter().map(|d| char::from(b'0' + d)).collect(),
        };
        let sign = if negative { "-" } else { "" };
        cx_datum()
            .parse(format!("{sign}{digits}E{exponent}"))
            .expect("a numeric's digits parse")
    }

    /// The library's decimal as a row holds it (reduced); `None` for an
    /// infinity or a value beyond 39 digits or places, which the real
    /// system's operations report before they come here.
    pub fn from_dec(d: &Dec) -> Option<Numeric> {
        if d.is_nan() {
            return Some(Numeric::NAN);
        }
        if d.is_infinite() {
            return None;
        }
        Numeric::from_parts(d.is_negative(), &d.coefficient_digits(), d.exponent())
    }
}

/// Text read as a numeric (`strconv::parse_numeric`): around whitespace,
/// standard or scientific notation, `NaN` in any case (no infinity).
pub fn parse(s: &str) -> Result<Numeric, String> {
    let mut cx = cx_datum();
    let invalid = || format!("invalid input syntax for type numeric: \"{s}\"");
    let mut n = cx.parse(s.trim()).map_err(|_| invalid())?;
    let status = cx.status();
    if (n.is_infinite() && !status.overflow())
        || (n.is_nan() && n.is_negative())
        || n.is_signaling_nan()
    {
        return Err(invalid());
    }
    let out_of_range = munge(&mut n).is_err();
    if status.overflow() || status.subnormal() || out_of_range {
        return Err(format!(
            "\"{s}\" is out of range for type numeric: exceeds maximum precision {MAX_PRECISION}"
        ));
    }
    Numeric::from_dec(&n).ok_or_else(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Numeric {
        Numeric::parse(s).expect("a numeric")
    }

    #[test]
    fn numerics_go_to_decimals_and_back_unchanged() {
        let big = format!("1{}", "0".repeat(38));
        for s in ["0", "1.5", "-0.05", "12000", &big, "-123456789.987654321"] {
            let d = n(s).to_dec();
            assert_eq!(Numeric::from_dec(&d), Some(n(s)), "{s}");
        }
        assert!(Numeric::from_dec(&Numeric::NAN.to_dec()).is_some_and(|n| n.is_nan()));
        assert_eq!(Numeric::from_dec(&Dec::infinity()), None);
        // Reduced, as a row holds it: 12000 is 12E+3 to the library.
        assert_eq!(n("12000").to_dec().to_string(), "1.2E+4");
    }

    #[test]
    fn munge_rounds_past_39_places_and_drops_negative_zero() {
        let mut cx = cx_datum();
        let mut d = cx
            .parse("0.0000000000000000000000000000000000000015")
            .unwrap();
        munge(&mut d).unwrap();
        assert_eq!(
            d.to_standard_notation_string(),
            "0.000000000000000000000000000000000000002"
        );
        let mut z = cx.parse("-0.00").unwrap();
        munge(&mut z).unwrap();
        assert!(!z.is_negative());
        let mut d = cx.parse("12.345").unwrap();
        rescale(&mut d, 2).unwrap();
        assert_eq!(d.to_standard_notation_string(), "12.35");
        let mut d = cx.parse("1e37").unwrap();
        assert!(rescale(&mut d, 3).is_err());
    }
}
