//! `sum` of `real`s and `double precision`s as the real system computes it
//! (its `compute/src/render/reduce.rs`, `Accum::Float`, read for the
//! facts): each value is mapped to fixed point, `(x * 2^24) as i128`
//! (truncated toward zero, saturating at the bounds of an `i128`), and the
//! fixed-point values are added with wrapping arithmetic, so that the sum
//! is the same in any order and under any worker count; infinities and
//! NaNs are counted apart. The result is NaN if any value was NaN or
//! infinities of both signs were summed, else the infinity if one was,
//! else the fixed-point sum divided by 2^24 (for a `real`, that double
//! then made a `real`). So `0.1 + 0.2` sums to `0.2999999523162842`.

use crate::plan::FloatWidth;
use crate::repr::{Datum, F32, F64};

/// The real system's `FLOAT_SCALE`.
const FLOAT_SCALE: f64 = (1u32 << 24) as f64;

/// The sums of one group's float values: what the real system's
/// `Accum::Float` accumulates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatSum {
    /// The finite values in fixed point, wrapping.
    pub accum: i128,
    pub pos_infs: i128,
    pub neg_infs: i128,
    pub nans: i128,
    pub non_nulls: i128,
}

impl FloatSum {
    /// A non-NULL float value's contribution, `times` times (a
    /// multiplicity); a value of another type contributes nothing.
    pub fn of(d: &Datum, times: i128) -> FloatSum {
        let n = match d {
            Datum::Float32(f) => f64::from(f.get()),
            Datum::Float64(f) => f.get(),
            _ => return FloatSum::default(),
        };
        let (nan, pos, neg) = (n.is_nan(), n == f64::INFINITY, n == f64::NEG_INFINITY);
        let accum = match nan || pos || neg {
            true => 0,
            // `as` saturates, as the real system's cast does.
            false => (n * FLOAT_SCALE) as i128,
        };
        FloatSum {
            accum: accum.wrapping_mul(times),
            pos_infs: i128::from(pos) * times,
            neg_infs: i128::from(neg) * times,
            nans: i128::from(nan) * times,
            non_nulls: times,
        }
    }

    /// Adds `other` in.
    pub fn add(&mut self, other: &FloatSum) {
        self.accum = self.accum.wrapping_add(other.accum);
        self.pos_infs += other.pos_infs;
        self.neg_infs += other.neg_infs;
        self.nans += other.nans;
        self.non_nulls += other.non_nulls;
    }

    /// The sum as a value of `width`: NULL when no value was non-NULL.
    pub fn finish(&self, width: FloatWidth) -> Datum {
        if self.non_nulls == 0 {
            return Datum::Null;
        }
        let sum = if self.nans > 0 || (self.pos_infs > 0 && self.neg_infs > 0) {
            f64::NAN
        } else if self.pos_infs > 0 {
            f64::INFINITY
        } else if self.neg_infs > 0 {
            f64::NEG_INFINITY
        } else {
            self.accum as f64 / FLOAT_SCALE
        };
        match width {
            FloatWidth::F32 => Datum::Float32(F32::new(sum as f32)),
            FloatWidth::F64 => Datum::Float64(F64::new(sum)),
        }
    }

    /// The fixed-point sum as two halves, each of which a sum of many
    /// values' halves holds without overflow (`split` and [`joined`] undo
    /// each other modulo 2^128, as wrapping addition needs).
    pub fn split(accum: i128) -> [i128; 2] {
        [accum >> 64, accum & i128::from(u64::MAX)]
    }

    /// The fixed-point sum from the sums of its halves, wrapping.
    pub fn joined(high: i128, low: i128) -> i128 {
        (high << 64).wrapping_add(low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(values: &[f64], width: FloatWidth) -> String {
        let mut total = FloatSum::default();
        for v in values {
            total.add(&FloatSum::of(&Datum::Float64(F64::new(*v)), 1));
        }
        total.finish(width).to_string()
    }

    #[test]
    fn sums_are_fixed_point_and_order_free() {
        use FloatWidth::{F32 as W32, F64 as W64};
        assert_eq!(sum(&[0.1, 0.2], W64), "0.2999999523162842");
        // Added as floats, 1e16 + 1 - 1e16 is 0 or 1 by order.
        assert_eq!(sum(&[1e16, 1.0, -1e16], W64), "1");
        assert_eq!(sum(&[-1e16, 1e16, 1.0], W64), "1");
        assert_eq!(sum(&[1e-9], W64), "0");
        assert_eq!(sum(&[-0.0], W64), "0");
        assert_eq!(sum(&[1.5, f64::INFINITY], W64), "Infinity");
        assert_eq!(sum(&[f64::NEG_INFINITY, f64::INFINITY], W64), "NaN");
        assert_eq!(sum(&[f64::NAN, 1.0], W64), "NaN");
        assert_eq!(sum(&[0.1, 0.2], W32), "0.29999995");
        assert_eq!(sum(&[], W64), "NULL");
        // Beyond an i128, a value saturates and the sum wraps.
        let text = |f: f64| Datum::Float64(F64::new(f)).to_string();
        assert_eq!(sum(&[1e300], W64), text(i128::MAX as f64 / FLOAT_SCALE));
        assert_eq!(sum(&[1e300, 1e300], W64), text(-2.0 / FLOAT_SCALE));
    }

    #[test]
    fn halves_rejoin_modulo_two_to_the_128() {
        for a in [0, 1, -1, i128::MAX, i128::MIN, 12345 << 70, -(7 << 64) - 3] {
            let [high, low] = FloatSum::split(a);
            assert_eq!(FloatSum::joined(high, low), a);
            let [h2, l2] = FloatSum::split(a);
            assert_eq!(
                FloatSum::joined(high + h2, low + l2),
                a.wrapping_add(a),
                "{a}"
            );
        }
    }
}
