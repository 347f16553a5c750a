//! `paths`: any bytes as a path or a name, into every path-taking operation, on core and the
//! oracle from the same fixed tree (see `pdtree_harness::paths`). A divergence panics with its
//! report so libFuzzer records the input as a crash. Then core's own API beyond `PseudoFs`
//! (`readdir_each`, `limits`) is checked on the tree the same ops build
//! (`pdtree_harness::core_api`).
#![no_main]

mod asan_defaults;

use libfuzzer_sys::fuzz_target;
use pdtree_harness::{check::core_api::check_tree_api, gen::paths::ops_from_path_bytes, run_ops};

fuzz_target!(|data: &[u8]| {
    let (limits, ops) = ops_from_path_bytes(data);
    if let Err(d) = run_ops(limits, &ops, &pdtree_harness::core_tree) {
        panic!("divergence:\n{d}");
    }
    if let Err(e) = check_tree_api(limits, &ops) {
        panic!("core's own API disagrees with PseudoFs:\n{e}");
    }
});
