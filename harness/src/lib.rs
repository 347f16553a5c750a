//! The differential harness (being built).
