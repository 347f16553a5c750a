//! The op language: what an op is, how it is written, how it runs on one tree.
//!
//! * [`op`]: [`Op`](op::Op) and [`OpKind`](op::OpKind), defined together by one table, with a
//!   field visitor ([`Op::fields`](op::Op::fields)) that everything else uses.
//! * [`script`]: the line-oriented text format.
//! * [`deep`]: the ops that build a deep state in one step (`bulk`, `chain`, `cycle_*`).
//! * [`runner`]: runs ops on any [`PseudoFs`](pdtree::PseudoFs) and describes each result.
//! * [`transcript`]: scripts with expected outcomes (`corpus/spec/*.t`).

pub mod deep;
pub mod op;
pub mod runner;
pub mod script;
pub mod transcript;
