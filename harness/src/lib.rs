//! # pdtree-harness
//!
//! A small op language for pdtree-style trees, a deterministic runner, and golden
//! conformance transcripts.
//!
//! * [`op`]: [`Op`], every SPEC operation plus slot-based handles and readdir cursors,
//!   `check` and `dump`.
//! * [`script`]: the line-oriented text format ([`parse_script`], [`print_script`]), with a
//!   `limits` directive and a `repeat N op` form whose strings expand `{i}`.
//! * [`runner`]: [`Runner`] executes ops on any [`PseudoFs`](pdtree::PseudoFs) and describes
//!   each result as an [`Outcome`] with a canonical one-line text.
//! * [`transcript`]: scripts with expected outcomes (`=> ` lines), as in `corpus/spec/*.t`.
//! * [`faults`]: planted historical bugs, to prove the harness finds them.
//! * [`core_api`]: core's API beyond `PseudoFs` (`Tree::readdir_each`, `limits`) checked
//!   against its `PseudoFs` counterpart, for the `paths` fuzz target.
//! * [`bench`]: `pdtree bench`, the performance benchmarks (docs/PERFORMANCE.md).
//!
//! ```
//! use pdtree_harness::{parse_script, print_script, Op, Stmt};
//! let s = parse_script(b"repeat 5000 create \"/net/dev_snmp6/eth{i}\" \"\"\n").unwrap();
//! let Stmt::Repeat { count, op } = &s.stmts[0] else { unreachable!() };
//! assert_eq!(*count, 5000);
//! assert_eq!(op.expand(7), Op::Create { path: b"/net/dev_snmp6/eth7".to_vec(), content: vec![] });
//! assert_eq!(parse_script(print_script(&s).as_bytes()).unwrap(), s);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod campaign;
pub mod cli;
pub mod core_api;
pub mod diff;
pub mod faults;
pub mod gen;
pub mod minimize;
pub mod op;
pub mod paths;
pub mod replay;
pub mod report;
pub mod runner;
pub mod script;
pub mod transcript;

pub use diff::{diff_bytes, run_ops, DiffRunner, Divergence, DivergenceKind, RunSummary, Side};
pub use gen::{ops_from_bytes, GenStats, OpKind};
pub use op::{Op, Slot, MAX_SLOT, SLOTS};
pub use runner::{run_script, DirCursor, Outcome, Runner};
pub use script::{parse_op, parse_script, print_script, quote, ParseError, Script, Stmt};
pub use transcript::{parse_transcript, run_transcript, Mismatch, RunOptions, Step, Transcript};
