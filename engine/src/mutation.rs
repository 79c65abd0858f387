//! The deliberately broken mechanisms, one per bug the seed reviews found
//! (and one per mechanism added since whose failure no other switch shows).
//!
//! Each constant is true only when its `mutation-*` Cargo feature is on
//! (`.ci/mutations` builds each and checks that its scenario fails). They are
//! constants rather than `#[cfg]` blocks so that an ordinary build type-checks
//! and lints the mutated branch too; the optimiser removes it.

/// A re-export's alias replaces a point a reader already bound.
pub const ALIAS_OVERWRITES: bool = cfg!(feature = "mutation-alias-overwrites");
/// One writer frontier and one standing hold per point, not per collection.
pub const POINT_FRONTIERS: bool = cfg!(feature = "mutation-point-frontiers");
/// The alias relation looked up without the worker.
pub const PROCESS_WIDE_ALIAS: bool = cfg!(feature = "mutation-process-wide-alias");
/// A join input's errors counted once more per delta path that reads it.
pub const JOIN_ERRS_PER_PATH: bool = cfg!(feature = "mutation-join-errs-per-path");
/// No hold reserved for the interactive peer when a point is published.
pub const NO_RESERVED_HOLD: bool = cfg!(feature = "mutation-no-reserved-hold");
/// A shared import never gives its hold up.
pub const IMPORT_HOLD_LEAK: bool = cfg!(feature = "mutation-import-hold-leak");
/// A dropped collection's publication ends while an import still reads it.
pub const NO_DRAINING: bool = cfg!(feature = "mutation-no-draining");
/// A draining publication that nothing holds (its imports all read to
/// their end) compacts its handles to the empty frontier and reads on.
pub const DRAIN_PAST_EMPTY_SINCE: bool = cfg!(feature = "mutation-drain-past-empty-since");
