//! `sum` of `numeric`s as the real system computes it (its
//! `compute/src/render/reduce.rs`, `Accum::Numeric`, read for the facts):
//! each value is taken into a decimal twice as wide (`cx_agg`, 81 digits),
//! where the sum of any values a `numeric` holds is exact, so in any order
//! and under any worker count; NaNs are counted apart. The result is NaN
//! if any value was NaN, else the exact sum brought back to a `numeric`
//! in its datum context (`cx_datum().to_width`): rounded to 39
//! significant digits, half up, and an infinity beyond 10^39, which the
//! real system prints (`-Infinity`) and the engine's `numeric` does not
//! hold, so it refuses that answer by name.
//!
//! The engine keeps the exact sum as integers, so that differential can
//! add it like any other difference: a value times 10^39 (an integer of
//! at most 78 digits, as a `numeric` has at most 39 places and is below
//! 10^39) in limbs of 20 digits, each limb summed on its own; the limbs'
//! sums, carried in a decimal wide enough to hold them exactly, are the
//! exact sum the real system's accumulator holds.

use dec::{Context, Decimal};

use crate::repr::decimal::{cx_datum, Dec};
use crate::repr::{unsupported, DataflowError, Datum, Numeric, MAX_PRECISION};

/// How many limbs a value's digits are kept in.
pub const LIMBS: usize = 4;

/// Digits per limb: a limb is below 10^20 (< 2^67), so that a limb times
/// a multiplicity, summed, stays within an `i128`.
const LIMB_DIGITS: usize = 20;

/// A decimal wide enough for the limbs' sums (each below 2^127, 39
/// digits, shifted by up to 60): 102 digits, exact.
type Wide = Decimal<34>;

/// The sums of one group's numeric values: what the real system's
/// `Accum::Numeric` accumulates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NumericSum {
    /// The finite values times 10^39, least significant limb first.
    pub limbs: [i128; LIMBS],
    pub nans: i128,
    pub non_nulls: i128,
}

impl NumericSum {
    /// A non-NULL numeric value's contribution, `times` times (a
    /// multiplicity); a value of another type contributes nothing.
    pub fn of(d: &Datum, times: i128) -> NumericSum {
        let Datum::Numeric(n) = d else {
            return NumericSum::default();
        };
        let Some((negative, mut digits, exponent)) = n.parts() else {
            return NumericSum {
                nans: times,
                non_nulls: times,
                ..NumericSum::default()
            };
        };
        // A row's numeric has at most 39 places: the shift is not negative.
        let shift = usize::try_from(exponent + MAX_PRECISION as i32).expect("at most 39 places");
        digits.resize(digits.len() + shift, 0);
        assert!(digits.len() <= LIMBS * LIMB_DIGITS, "a numeric below 10^39");
        let mut limbs = [0i128; LIMBS];
        for (limb, chunk) in limbs.iter_mut().zip(digits.rchunks(LIMB_DIGITS)) {
            let v = chunk.iter().fold(0i128, |a, d| a * 10 + i128::from(*d));
            *limb = if negative { -v } else { v } * times;
        }
        NumericSum {
            limbs,
            nans: 0,
            non_nulls: times,
        }
    }

    /// Adds `other` in.
    pub fn add(&mut self, other: &NumericSum) {
        for (a, b) in self.limbs.iter_mut().zip(other.limbs) {
            *a += b;
        }
        self.nans += other.nans;
        self.non_nulls += other.non_nulls;
    }

    /// The sum as a `numeric`: NULL when no value was non-NULL, NaN when
    /// one was NaN; past 10^39 (an infinity in the real system) refused.
    pub fn finish(&self) -> Result<Datum, DataflowError> {
        if self.non_nulls == 0 {
            return Ok(Datum::Null);
        }
        if self.nans > 0 {
            return Ok(Datum::Numeric(Numeric::NAN));
        }
        let mut cx = Context::<Wide>::default();
        let mut sum = Wide::zero();
        for (i, limb) in self.limbs.iter().enumerate() {
            let mut term = cx.from_i128(*limb);
            let places = (LIMB_DIGITS * i) as i32 - MAX_PRECISION as i32;
            cx.scaleb(&mut term, &Wide::from(places));
            cx.add(&mut sum, &term);
        }
        assert!(!cx.status().rounded(), "an exact numeric sum");
        let d: Dec = cx_datum().to_width(sum);
        match Numeric::from_dec(&d) {
            Some(n) if !d.is_infinite() => Ok(Datum::Numeric(n)),
            _ => Err(sum_beyond_numeric(d.is_negative())),
        }
    }
}

/// The sum of `values` added one at a time in their order, each addition
/// rounded to the datum context, as the real system's `sum_numeric`
/// (`AggregateFunc::eval`) adds the values of a window's frame; NULLs are
/// skipped, none but NULLs is NULL, and an infinity (a partial sum past
/// 10^39) is refused as `finish` refuses it.
pub fn in_order<'a>(values: impl IntoIterator<Item = &'a Datum>) -> Result<Datum, DataflowError> {
    let mut cx = cx_datum();
    let mut sum = Dec::zero();
    let mut empty = true;
    for d in values {
        if let Datum::Numeric(n) = d {
            empty = false;
            cx.add(&mut sum, &n.to_dec());
        }
    }
    if empty {
        return Ok(Datum::Null);
    }
    Numeric::from_dec(&sum)
        .map(Datum::Numeric)
        .ok_or_else(|| sum_beyond_numeric(sum.is_negative()))
}

/// The refusal of a sum past 10^39, which the real system answers as an
/// infinity (its `numeric` holds one; the engine's does not).
pub fn sum_beyond_numeric(negative: bool) -> DataflowError {
    let sign = if negative { "-" } else { "" };
    DataflowError(unsupported(format!(
        "sum of numeric beyond 10^39 (the real system's answer is {sign}Infinity)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Datum {
        Datum::Numeric(super::super::numeric::parse(s).expect("a numeric"))
    }

    fn sum(values: &[(&str, i128)]) -> Result<String, String> {
        let mut total = NumericSum::default();
        for (v, times) in values {
            total.add(&NumericSum::of(&n(v), *times));
        }
        total.finish().map(|d| d.to_string()).map_err(|e| e.0)
    }

    #[test]
    fn sums_are_exact_then_rounded_to_39_digits() {
        assert_eq!(sum(&[("1.5", 1), ("2.25", 2)]), Ok("6".into()));
        assert_eq!(sum(&[("0.1", 1), ("0.2", 1)]), Ok("0.3".into()));
        assert_eq!(sum(&[("1.5", 1), ("-1.5", 1)]), Ok("0".into()));
        let tiny = format!("0.{}1", "0".repeat(38));
        assert_eq!(sum(&[(&tiny, 3)]), Ok(format!("0.{}3", "0".repeat(38))));
        // 10^37 + 0.05 needs 40 digits: rounded to 39, half up.
        let big = format!("1{}", "0".repeat(37));
        let half = "0.05".to_string();
        assert_eq!(sum(&[(&big, 1), (&half, 1)]), Ok(format!("{big}.1")));
        assert_eq!(sum(&[(&big, 1), (&tiny, 1)]), Ok(big.clone()));
        // Whatever the order, and retracted back to where it was.
        assert_eq!(
            sum(&[(&tiny, 1), (&big, 1), (&tiny, -1), ("-7.5", 2)]),
            Ok(format!("{}85", "9".repeat(35)))
        );
        assert_eq!(sum(&[]), Ok("NULL".into()));
    }

    #[test]
    fn in_order_rounds_each_addition_where_the_exact_sum_does_not() {
        let big = format!("1{}", "0".repeat(37));
        let minus = format!("-{big}");
        let in_order = |values: &[&str]| {
            let values: Vec<Datum> = values.iter().map(|v| n(v)).collect();
            in_order(values.iter()).map(|d| d.to_string())
        };
        // 10^37 + 0.05 is rounded to 39 digits before 10^37 leaves again.
        assert_eq!(in_order(&[&big, "0.05", &minus]), Ok("0.1".into()));
        assert_eq!(in_order(&[&big, &minus, "0.05"]), Ok("0.05".into()));
        assert_eq!(
            sum(&[(&big, 1), ("0.05", 1), (&minus, 1)]),
            Ok("0.05".into())
        );
        assert_eq!(in_order(&[]), Ok("NULL".into()));
        assert_eq!(in_order(&["NaN", "1"]), Ok("NaN".into()));
        let nines = "9".repeat(39);
        assert_eq!(
            in_order(&[&nines, &nines, &format!("-{nines}")]),
            Err(sum_beyond_numeric(false)),
            "an infinity once past 10^39, whatever follows"
        );
    }

    #[test]
    fn nan_wins_and_an_infinite_sum_is_refused() {
        assert_eq!(sum(&[("NaN", 1), ("1", 1)]), Ok("NaN".into()));
        assert_eq!(sum(&[("NaN", 1), ("NaN", -1), ("1", 1)]), Ok("1".into()));
        let nines = "9".repeat(39);
        let minus = format!("-{nines}");
        assert_eq!(
            sum(&[(&minus, 2)]),
            Err(sum_beyond_numeric(true).0),
            "the real system's -Infinity"
        );
        assert_eq!(sum(&[(&nines, 2), ("NaN", 1)]), Ok("NaN".into()));
        // Back below 10^39 once a value is retracted.
        assert_eq!(sum(&[(&nines, 2), (&nines, -1)]), Ok(nines.clone()));
        // 10^39 - 0.5 rounds up past 39 digits: an infinity there too.
        assert_eq!(
            sum(&[(&nines, 1), ("0.5", 1)]),
            Err(sum_beyond_numeric(false).0)
        );
        assert_eq!(sum(&[(&nines, 1), ("0.4", 1)]), Ok(nines.clone()));
    }
}
