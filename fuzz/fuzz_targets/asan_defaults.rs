//! AddressSanitizer's default options for every fuzz target (`ASAN_OPTIONS` still overrides).
//!
//! `detect_stack_use_after_return=0`. Since LLVM 15 ASan turns this on by default on Linux:
//! every call of an instrumented function with addressable locals gets its frame from a
//! "fake stack" that is poisoned when it returns. libFuzzer's own per-feature callback is
//! among those functions, and so is much of the harness: with it on, the fake stack takes
//! about 11% of the `diff` target's time (perf), and turning it off raises the target's rate
//! from an empty corpus by about a quarter (40,000 runs with `-seed=1`, interleaved).
//!
//! What the check could find here: a pointer into a stack frame used after the frame
//! returned. core, the oracle and the harness are `#![forbid(unsafe_code)]`, where the borrow
//! checker rules that out. Heap checks (overflow, use after free, double free) and leak
//! detection stay on.

/// Read by the ASan runtime at start-up (a weak symbol there; this definition wins).
#[unsafe(no_mangle)]
pub extern "C" fn __asan_default_options() -> *const std::ffi::c_char {
    c"detect_stack_use_after_return=0".as_ptr()
}
