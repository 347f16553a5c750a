//! The differential harness (being built), and the `pdtree bench` benchmarks ([`bench`]).

pub mod bench;
