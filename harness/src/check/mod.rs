//! Checking an implementation under test (A) against a reference (B).
//!
//! * [`diff`]: [`DiffRunner`](diff::DiffRunner), a parent over named checks run after every
//!   op (outcomes, invariants, stats, atomicity, readdir scans).
//! * [`divergence`]: what a failed check reports.
//! * [`near`]: what an op could have changed, the scope of the invariant check after it.
//! * [`dirs`]: every directory's `stat` through the API, compared at the end of an input.
//! * [`scan`]: the SPEC §5 readdir guarantee, tracked per cursor slot.
//! * [`core_api`]: core's API beyond the trait checked against its trait counterpart.
//! * [`faults`]: planted bugs, to prove the checks find them.

pub mod core_api;
pub mod diff;
pub(crate) mod dirs;
pub mod divergence;
pub mod faults;
pub mod near;
pub(crate) mod panic;
pub mod scan;
