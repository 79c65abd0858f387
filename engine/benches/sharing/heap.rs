//! The sharing bench's heap accounting: the system allocator, counting live
//! heap bytes ([`LIVE`]) and their high-water mark ([`PEAK`]), installed as
//! the bench's global allocator so that each side's peak is measured
//! in-process, threads included. Its own module because both the engine's
//! runs and the bare one (`bare.rs`) read the counters.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live heap bytes and their high-water mark,
/// so each configuration's peak is measured in-process, threads included.
struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

pub static LIVE: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Relaxed);
}

/// Counts a fresh block if the system allocator returned one.
fn counted(ptr: *mut u8, bytes: usize) -> *mut u8 {
    if !ptr.is_null() {
        grew(bytes);
    }
    ptr
}

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counted(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            match new_size.checked_sub(layout.size()) {
                Some(more) => grew(more),
                None => shrank(layout.size() - new_size),
            }
        }
        new
    }
}
