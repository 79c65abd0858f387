//! A bench's figures, computed one way by every bench: the median of a
//! figure over rounds, milliseconds, and the verdict on a ratio's goal.
// Each bench includes this file and uses only what it prints.
#![allow(dead_code)]

use std::time::Duration;

/// The middle value (the upper middle one for an even count).
pub fn median<T: Copy + Ord>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

/// The middle ratio, in `f64`'s total order.
pub fn median_ratio(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Whether `ratio` meets a goal of at most `limit`, in words.
pub fn verdict(ratio: f64, limit: f64) -> &'static str {
    if ratio <= limit {
        "within goal"
    } else {
        "over goal"
    }
}
