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

// SAFETY: every call is forwarded unchanged to `System`; the counters are side bookkeeping.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

/// Live requested bytes, or `None` when [`CountingAlloc`] is not the global allocator.
pub fn live_bytes() -> Option<usize> {
    // Make sure at least one allocation has gone through the global allocator.
    std::hint::black_box(Box::new(0u64));
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed))
}
