//! The differential harness (being built).
pub mod faults;
