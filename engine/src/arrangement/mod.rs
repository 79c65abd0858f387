//! An index's arrangements: the two differential traces (rows by key, errors
//! by themselves) every index, table and transient result is kept in, and
//! how they are built, imported and read.
//!
//! The batch types sit behind `Arc` (`Shared`) so the sharing registry can
//! hand the very batches to the other runtime; everything that names them
//! takes them from here.

mod chunker;
mod index;
mod layout;
mod merger;
mod read;
#[cfg(test)]
mod tests;
mod walk;

pub use index::{arrange, arrange_by_self, arrange_packed_by_self, Chain, IndexTraces};
#[cfg(test)]
pub(crate) use index::{rows_by_themselves, seal};
pub use layout::row_of;
#[cfg(test)]
pub use read::cursor_of;
pub use read::{all_batches, batch_id, holds_exactly, net_errors, records_at, upper_of};
pub use walk::{arrange_imported, each_time, import_local, rows, WALK_FUEL};
