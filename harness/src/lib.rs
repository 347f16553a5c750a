//! # pdtree-harness
//!
//! Differential testing of pdtree-style trees: a small op language, generators that turn
//! bytes into op sequences, a differential runner that checks an implementation under test
//! against the naive oracle after every op, a minimizer, and the deterministic campaign that
//! ties them together. The folders are the pipeline:
//!
//! ```text
//!  gen (bytes → ops) ──► lang (ops, scripts, runner) ──► check (A vs B, every op)
//!                                                              │ Divergence
//!  campaign (seeds → inputs, reports) ◄── shrink (minimal ops) ◄┘
//! ```
//!
//! * [`lang`]: [`Op`] and [`OpKind`] (one table), the script and transcript formats,
//!   [`Runner`] and [`Outcome`].
//! * [`gen`]: the swarm generator ([`gen::ops_from_bytes`]) and the raw-path input
//!   ([`gen::paths`]).
//! * [`check`]: [`DiffRunner`] and its named checks, the readdir scan tracker, checks of
//!   core's API beyond the trait ([`check::core_api`]) and planted bugs ([`check::faults`]).
//! * [`shrink`]: the minimizer.
//! * [`campaign`]: the built-in fuzzer, case files and replay, report directories.
//! * [`lincheck`]: linearizability checking of a tree shared between threads.
//! * [`target`]: real directories of any mounted filesystem as targets (Linux).
//!
//! The `pdtree` command (crate `pdtree-cli`) is a thin tool over this library.
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

pub mod campaign;
pub mod check;
pub mod gen;
pub mod lang;
pub mod lincheck;
pub mod shrink;
#[cfg(target_os = "linux")]
pub mod target;

/// The seed of core's name hashing in every run the harness makes of core: fixed, so an
/// input runs the same way, hash tables and all, in every process (results never depend on
/// it; layouts and therefore timings and threshold counts do).
pub const CORE_HASH_SEED: u64 = 0x7064_7472_6565; // "pdtree"

/// Core's tree as the harness's engines make it: [`pdtree::Tree::with_seed`] with
/// [`CORE_HASH_SEED`].
///
/// ```
/// use pdtree::{Limits, PseudoFs};
/// let t = pdtree_harness::core_tree(Limits::default());
/// assert_eq!(t.stats().live, 1);
/// ```
pub fn core_tree(limits: pdtree::Limits) -> pdtree::Tree {
    pdtree::Tree::with_seed(limits, CORE_HASH_SEED)
}

pub use check::diff::{diff_bytes, diff_bytes_in, run_ops, DiffRunner, RunSummary};
pub use check::divergence::{Divergence, DivergenceKind, ReaddirRule, Side};
pub use gen::{ops_from_bytes, GenStats};
pub use lang::op::{Op, OpKind, Slot, MAX_SLOT, SLOTS};
pub use lang::runner::{run_script, DirCursor, Outcome, Runner};
pub use lang::script::{parse_op, parse_script, print_script, quote, ParseError, Script, Stmt};
pub use lang::transcript::{
    parse_transcript, run_transcript, Mismatch, RunOptions, Step, Transcript,
};
