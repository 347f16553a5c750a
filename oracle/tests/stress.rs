//! A deterministic random walk over every operation: no panics, invariants hold after every
//! step, every failure leaves the dump unchanged, and the dump agrees with `stats`.

use pdtree::{Limits, PseudoFs, Row, ROOT_INO};
use pdtree_oracle::Oracle;

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NAMES: [&[u8]; 6] = [b"a", b"b", b"c", b"..", b"", b"x y"];

fn path(r: &mut Rng) -> Vec<u8> {
    let depth = r.below(4);
    let mut p = Vec::new();
    if r.below(2) == 0 {
        p.push(b'/');
    }
    for i in 0..depth {
        if i > 0 {
            p.push(b'/');
        }
        // Mostly valid names, sometimes a bad one.
        let k = if r.below(10) == 0 {
            r.below(6)
        } else {
            r.below(3)
        };
        p.extend_from_slice(NAMES[k as usize]);
    }
    p
}

fn run(seed: u64, steps: usize, limits: Limits) -> [u32; 16] {
    let mut successes = [0u32; 16];
    let mut r = Rng(seed);
    let mut o = Oracle::with_limits(limits);
    for _ in 0..steps {
        let before = o.dump();
        let p = path(&mut r);
        let n = r.below(100);
        let op = r.below(16) as usize;
        let failed = match op {
            0 => o.mkdir(&p).is_err(),
            1 => o.create(&p, &vec![b'c'; r.below(6) as usize]).is_err(),
            2 => o.symlink(&p, &vec![b't'; r.below(6) as usize]).is_err(),
            3 => o.listing(&p).is_err(),
            4 => {
                let rows: Vec<Row> = (0..r.below(3))
                    .map(|_| {
                        let name = NAMES[r.below(3) as usize];
                        if r.below(2) == 0 {
                            Row::dir(name)
                        } else {
                            Row::file(name, "v")
                        }
                    })
                    .collect();
                o.register(&p, &rows).is_err()
            }
            5 => o.unregister(n % 8).is_err(),
            6 => o.stat(&p).is_err(),
            7 => o.lookup_at(n % 20, NAMES[(n % 6) as usize]).is_err(),
            8 => o.readdir(n % 20, r.below(20), (n % 5) as usize).is_err(),
            9 => o.remove(&p).is_err(),
            10 => o.remove_subtree(&p).is_err(),
            11 => o.mark_permanent(&p).is_err(),
            12 | 13 => o.open(&p).is_err(),
            14 => o.read(n % 12).is_err(),
            _ => o.close(n % 12).is_err(),
        };
        let after = o.dump();
        if !failed {
            successes[op] += 1;
        }
        if failed {
            assert_eq!(
                after, before,
                "seed {seed}: a failed operation changed the state"
            );
        }
        o.check_invariants()
            .unwrap_or_else(|v| panic!("seed {seed}: {v}\n{after}"));
        let s = o.stats();
        let entries = after.lines().filter(|l| l.starts_with("entry ")).count() as u64;
        assert_eq!(entries, s.live);
        assert!(s.allocated <= limits.max_entries.max(1));
        // A full readdir of the root agrees with the dump.
        let top = after.lines().filter(|l| {
            l.starts_with("entry /")
                && l[7..]
                    .split(' ')
                    .next()
                    .is_some_and(|p| !p.contains('/') && !p.is_empty())
        });
        let mut listed = 0;
        let mut pos = 0;
        loop {
            let page = o.readdir(ROOT_INO, pos, limits.max_readdir).unwrap();
            if page.entries.is_empty() {
                break;
            }
            listed += page.entries.len();
            pos = page.next_pos;
        }
        assert_eq!(top.count(), listed);
    }
    successes
}

/// Every operation succeeded at least once over the walks (else the walk proves little).
fn all_ops_exercised(total: [u32; 16]) {
    for (op, n) in total.iter().enumerate() {
        assert!(*n > 0, "operation {op} never succeeded");
    }
}

#[test]
fn random_walks_default_limits() {
    let mut total = [0u32; 16];
    for seed in 1..=20u64 {
        let s = run(
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            600,
            Limits::default(),
        );
        total.iter_mut().zip(s).for_each(|(t, s)| *t += s);
    }
    all_ops_exercised(total);
}

#[test]
fn random_walks_tiny_limits() {
    let limits = Limits {
        max_entries: 6,
        max_content: 3,
        max_table_rows: 1,
        max_readdir: 2,
        max_namespaces: 65_536,
    };
    for seed in 1..=20u64 {
        let _ = run(seed.wrapping_mul(0x2545_f491_4f6c_dd1d), 600, limits);
    }
}

#[test]
fn zero_limits_never_panic() {
    let limits = Limits {
        max_entries: 0,
        max_content: 0,
        max_table_rows: 0,
        max_readdir: 0,
        max_namespaces: 65_536,
    };
    let mut o = Oracle::with_limits(limits);
    assert!(o.mkdir(b"a").is_err());
    assert!(o.register(b"a", &[]).is_err());
    assert!(o.readdir(ROOT_INO, 0, 1).is_err());
    o.check_invariants().unwrap();
}
