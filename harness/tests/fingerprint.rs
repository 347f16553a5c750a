//! Core's `fingerprint()` is a function of the canonical state and tells states apart: over
//! every state that generated inputs pass through, two states have equal fingerprints exactly
//! when their dumps are equal. (The differential runner proves a failed op atomic by comparing
//! fingerprints; a fingerprint that missed a field would let a non-atomic op through.)

use std::collections::HashMap;

use pdtree::PseudoFs;
use pdtree_harness::campaign::iteration_input;
use pdtree_harness::{ops_from_bytes, Runner};

#[test]
fn equal_fingerprints_exactly_when_dumps_are_equal() {
    let mut by_dump: HashMap<String, u64> = HashMap::new();
    let mut by_fingerprint: HashMap<u64, String> = HashMap::new();
    let mut states = 0usize;
    for i in 0..300 {
        let (limits, ops) = ops_from_bytes(&iteration_input(7, i, 4096));
        let mut r = Runner::from_tree(pdtree_harness::core_tree(limits));
        for op in &ops {
            r.apply(op);
            let (dump, fp) = (r.tree().dump(), r.tree().fingerprint());
            states += 1;
            if let Some(&seen) = by_dump.get(&dump) {
                assert_eq!(
                    seen, fp,
                    "input {i}: one dump, two fingerprints, after {op}"
                );
            }
            if let Some(seen) = by_fingerprint.get(&fp) {
                assert_eq!(
                    *seen, dump,
                    "input {i}: one fingerprint for two dumps, after {op}"
                );
            }
            by_dump.insert(dump.clone(), fp);
            by_fingerprint.insert(fp, dump);
        }
    }
    // Many states, and many of them repeated (failed ops, reads), or the test proves little.
    assert!(states > 10_000, "only {states} states");
    assert!(
        by_dump.len() > 2_000,
        "only {} distinct states",
        by_dump.len()
    );
    assert!(by_dump.len() < states, "no state repeated");
}
