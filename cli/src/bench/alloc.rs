//! Byte counting for the memory case: "everything the tree allocates". The `pdtree` binary's
//! global allocator forwards to `System` and keeps the count.
//!
//! It counts bytes *requested* (alloc − dealloc, plus realloc deltas), not what the system
//! allocator rounds them up to, so the figure is the data structure's own footprint.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

/// Called by the counting allocator on every allocation of `size` bytes.
#[inline]
fn on_alloc(size: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        LIVE.fetch_add(size, Ordering::Relaxed);
    } else if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
}

/// Called by the counting allocator on every deallocation of `size` bytes.
#[inline]
fn on_dealloc(size: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        LIVE.fetch_sub(size, Ordering::Relaxed);
    }
}

/// Live requested bytes counted so far (wrapping; only differences taken while counting
/// stayed on mean anything), or `None` when no counting allocator is installed.
pub fn live_bytes() -> Option<usize> {
    // Make sure at least one allocation has gone through the global allocator.
    std::hint::black_box(Box::new(0u64));
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed))
}

/// The `pdtree` binary's allocator: `System`, with byte counting on the side.
struct CountingAlloc;

// SAFETY: every call is forwarded unchanged to `System`; the counters are side bookkeeping
// that never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        on_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        on_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        on_dealloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            on_alloc(new_size);
            on_dealloc(layout.size());
        }
        p
    }
}

#[global_allocator]
static COUNTING_ALLOC: CountingAlloc = CountingAlloc;
