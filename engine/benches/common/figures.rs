//! A bench's figures, computed one way by every bench: the median of a
//! figure over rounds, milliseconds, and the line that judges a ratio
//! against its goal.
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

/// Prints whether `ratio` (what `what` names) meets a goal of at most
/// `limit`.
pub fn goal(what: &str, ratio: f64, limit: f64) {
    let verdict = if ratio <= limit {
        "within goal"
    } else {
        "over goal"
    };
    println!("goal {what:<28} {ratio:>6.2}x <= {limit:.2}x: {verdict}");
}
