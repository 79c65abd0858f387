//! One run of one file on a fresh engine: replaying its blocks against a
//! target, with panics caught as data. Knows nothing of goldens.

pub mod capture;
pub mod replay;
pub mod target;
pub mod timed;
