//! End-to-end tests of the runner on temporary suites, driving a scripted
//! stand-in for the engine (the reference engine is not needed to test the
//! runner's own rules).
//!
//! One test binary (`cargo test -p runner --test app`), one module per
//! feature, as insta's `cargo-insta/tests/functional/` is laid out; what
//! they share is in `common.rs`.

mod binary;
mod common;
mod discovery;
mod foreign;
mod github;
mod goldens;
mod lifetime;
mod runs;
mod selection;
mod slt;
mod suite_flags;
mod usage;
