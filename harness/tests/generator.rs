//! Generator quality: a fixed-seed run reaches every op kind and every SPEC error, and at
//! least half of the generated ops succeed. Fails if a change to the generator (or to the
//! trees) stops reaching any of them.

use pdtree::{Limits, PseudoFs};
use pdtree_harness::campaign::iteration_input;
use pdtree_harness::gen::{GenStats, Generator};
use pdtree_harness::Runner;
use pdtree_oracle::Oracle;

#[test]
fn fixed_seed_reaches_every_kind_and_error_and_mostly_succeeds() {
    let mut stats = GenStats::default();
    for i in 0..1500 {
        let input = iteration_input(1, i, 4096);
        let mut g = Generator::new(&input);
        let limits: Limits = g.limits();
        let mut r: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
        while let Some(op) = g.next_op() {
            let out = r.apply(&op);
            stats.record(&op, &out);
            g.observe(&op, &out);
        }
        stats.inputs += 1;
    }
    assert!(
        stats.missing_kinds().is_empty(),
        "kinds never run: {:?}\n{stats}",
        stats.missing_kinds()
    );
    assert!(
        stats.missing_errors().is_empty(),
        "errors never reached: {:?}\n{stats}",
        stats.missing_errors()
    );
    assert!(
        stats.ok_permille() >= 500,
        "only {}‰ of ops succeed\n{stats}",
        stats.ok_permille()
    );
}
