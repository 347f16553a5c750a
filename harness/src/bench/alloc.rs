//! A counting global allocator: the memory case's "everything the tree allocates".
//!
//! The library only defines it; a binary (or bench/test) that wants byte counts installs it:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: pdtree_harness::bench::CountingAlloc = pdtree_harness::bench::CountingAlloc;
//! ```
//!
//! It counts bytes *requested* (alloc − dealloc, plus realloc deltas), not what the system
//! allocator rounds them up to, so the figure is the data structure's own footprint.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Forwards to [`System`] and keeps a running total of live requested bytes.
pub struct CountingAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Counting is off by default: the atomic add would otherwise slow every allocation of the
/// baselines (a `HashMap` insert allocates its key) that it does not measure.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Turns byte counting on or off (see [`live_bytes`]); off by default. Compare only
/// figures taken while it stayed on.
pub fn set_counting(on: bool) {
    ENABLED.store(on, Ordering::SeqCst);
}

// SAFETY: every call is forwarded unchanged to `System`; the counters are side bookkeeping.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        } else if !INSTALLED.load(Ordering::Relaxed) {
            INSTALLED.store(true, Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        } else if !INSTALLED.load(Ordering::Relaxed) {
            INSTALLED.store(true, Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ENABLED.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && ENABLED.load(Ordering::Relaxed) {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

/// Live requested bytes counted so far (wrapping; only differences taken while counting
/// stayed on mean anything), or `None` when [`CountingAlloc`] is not the global allocator.
pub fn live_bytes() -> Option<usize> {
    // Make sure at least one allocation has gone through the global allocator.
    std::hint::black_box(Box::new(0u64));
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed))
}
