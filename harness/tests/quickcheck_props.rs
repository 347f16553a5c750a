//! Small properties checked with quickcheck:
//!
//! * the script format round-trips: for any script (limits, ops and `repeat`s with arbitrary
//!   bytes in every string: NUL, quotes, backslashes, newlines, `{i}`, non-UTF-8),
//!   `parse_script(print_script(s)) == s`;
//! * path validation is total: any bytes as a path to `stat` (and as a name to `lookup_at`,
//!   and as a path to `mkdir`) never panic and give the same result on core and the oracle;
//! * dumps are deterministic: the same ops on two fresh trees give identical outcomes and
//!   dumps, for core and for the oracle.

use pdtree::{Limits, PseudoFs, Row, RowKind, Tree};
use pdtree_harness::lang::op::{FieldMut, MAX_COUNT};
use pdtree_harness::lang::script::MAX_REPEAT;
use pdtree_harness::{parse_script, print_script, Op, OpKind, Runner, Script, Stmt, MAX_SLOT};
use pdtree_oracle::Oracle;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// Bytes that stress the quoting: every escape, `{i}` templates, comment and token bytes.
const NASTY: &[u8] = b"\0\"\\\n\t\r \x7f\x80\xff{}i#,[]/.";

/// Arbitrary bytes, biased towards the ones the script format escapes.
#[derive(Clone, Debug)]
struct Bytes(Vec<u8>);

impl Arbitrary for Bytes {
    fn arbitrary(g: &mut Gen) -> Self {
        let len = usize::arbitrary(g) % (g.size() + 1);
        Bytes(
            (0..len)
                .map(|_| {
                    if bool::arbitrary(g) {
                        *g.choose(NASTY).unwrap()
                    } else {
                        u8::arbitrary(g)
                    }
                })
                .collect(),
        )
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Bytes))
    }
}

fn bytes(g: &mut Gen) -> Vec<u8> {
    Bytes::arbitrary(g).0
}

/// Any `Op` the script format can express: arbitrary bytes, numbers and in-range slots.
#[derive(Clone, Debug)]
struct AnyOp(Op);

impl Arbitrary for AnyOp {
    /// A kind, then each of its fields by role.
    fn arbitrary(g: &mut Gen) -> Self {
        let kind = OpKind::ALL[usize::arbitrary(g) % OpKind::COUNT];
        let mut op = kind.blank();
        for field in op.fields_mut() {
            match field {
                FieldMut::Path(b)
                | FieldMut::NewPath(b)
                | FieldMut::Name(b)
                | FieldMut::Data(b)
                | FieldMut::Source(b) => *b = bytes(g),
                FieldMut::Offset(n) | FieldMut::Len(n) | FieldMut::Ns(n) | FieldMut::View(n) => {
                    *n = u64::arbitrary(g)
                }
                FieldMut::Mode(n) | FieldMut::Id(n) => *n = u32::arbitrary(g),
                FieldMut::Rows(rows) => {
                    *rows = Vec::<AnyRow>::arbitrary(g)
                        .into_iter()
                        .map(|r| r.0)
                        .collect()
                }
                FieldMut::Ino(n) | FieldMut::Pos(n) | FieldMut::Header(n) => *n = u64::arbitrary(g),
                FieldMut::PageSize(n) => *n = usize::arbitrary(g),
                FieldMut::Slot(n) => *n = u8::arbitrary(g) % (MAX_SLOT + 1),
                FieldMut::Count(n) => *n = usize::arbitrary(g) % (MAX_COUNT + 1),
            }
        }
        AnyOp(op)
    }
}

/// A table row with arbitrary bytes.
#[derive(Clone, Debug)]
struct AnyRow(Row);

impl Arbitrary for AnyRow {
    fn arbitrary(g: &mut Gen) -> Self {
        let kind = match u8::arbitrary(g) % 3 {
            0 => RowKind::File(bytes(g)),
            1 => RowKind::Dir,
            _ => RowKind::Gen(bytes(g)),
        };
        let mode = bool::arbitrary(g).then(|| u32::arbitrary(g));
        AnyRow(Row {
            name: bytes(g),
            kind,
            mode,
        })
    }
}

/// A statement: mostly plain ops, sometimes a `repeat` (whose strings are templates).
#[derive(Clone, Debug)]
struct AnyStmt(Stmt);

impl Arbitrary for AnyStmt {
    fn arbitrary(g: &mut Gen) -> Self {
        let op = AnyOp::arbitrary(g).0;
        AnyStmt(if u8::arbitrary(g) % 4 == 0 {
            Stmt::Repeat {
                count: u64::arbitrary(g) % (MAX_REPEAT + 1),
                op,
            }
        } else {
            Stmt::Op(op)
        })
    }
}

#[derive(Clone, Debug)]
struct AnyScript(Script);

impl Arbitrary for AnyScript {
    fn arbitrary(g: &mut Gen) -> Self {
        let limits = bool::arbitrary(g).then(|| Limits {
            max_entries: u64::arbitrary(g),
            max_content: usize::arbitrary(g),
            max_table_rows: usize::arbitrary(g),
            max_readdir: usize::arbitrary(g),
            max_namespaces: u64::arbitrary(g),
        });
        let stmts = Vec::<AnyStmt>::arbitrary(g)
            .into_iter()
            .map(|s| s.0)
            .collect();
        AnyScript(Script { limits, stmts })
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let limits = self.0.limits;
        let stmts = self.0.stmts.clone();
        Box::new((0..stmts.len()).map(move |i| {
            let mut s = stmts.clone();
            s.remove(i);
            AnyScript(Script { limits, stmts: s })
        }))
    }
}

fn qc() -> QuickCheck {
    QuickCheck::new().tests(300).max_tests(3000)
}

#[test]
fn script_print_parse_round_trips() {
    fn prop(s: AnyScript) -> TestResult {
        let printed = print_script(&s.0);
        match parse_script(printed.as_bytes()) {
            Ok(back) if back == s.0 => TestResult::passed(),
            Ok(back) => TestResult::error(format!("round trip changed it: {back:?}\n{printed}")),
            Err(e) => TestResult::error(format!("printed script does not parse: {e}\n{printed}")),
        }
    }
    qc().quickcheck(prop as fn(AnyScript) -> TestResult);
}

#[test]
fn single_op_prints_on_one_line_and_parses_back() {
    fn prop(op: AnyOp) -> bool {
        let line = op.0.to_string();
        !line.contains('\n') && pdtree_harness::parse_op(line.as_bytes()).as_ref() == Ok(&op.0)
    }
    qc().quickcheck(prop as fn(AnyOp) -> bool);
}

/// A small populated state, the same on both sides.
fn populated<T: PseudoFs>() -> Runner<T> {
    let mut r = Runner::new(Limits::default());
    for line in [
        "mkdir \"/a\"",
        "create \"/a/f\" \"x\"",
        "symlink \"/a/l\" \"f\"",
        "listing \"/a/g\"",
        "register \"/net/ipv4\" [f \"forwarding\" \"1\", d \"neigh\"]",
        "register \"/mnt\" []",
    ] {
        let out = r.apply(&pdtree_harness::parse_op(line.as_bytes()).unwrap());
        assert!(!out.is_failure(), "{line}: {out}");
    }
    r
}

#[test]
fn path_validation_is_total_and_agrees() {
    fn prop(path: Bytes, under_a: bool) -> TestResult {
        let mut p = if under_a { b"/a/".to_vec() } else { Vec::new() };
        p.extend_from_slice(&path.0);
        let mut core: Runner<Tree> = populated();
        let mut oracle: Runner<Oracle> = populated();
        for op in [
            Op::Stat {
                view: 0,
                path: p.clone(),
            },
            Op::LookupAt {
                view: 0,
                dir: 2,
                name: path.0.clone(),
            },
            Op::Mkdir { path: p.clone() },
            Op::Stat {
                view: 0,
                path: p.clone(),
            },
        ] {
            let (a, b) = (core.apply(&op), oracle.apply(&op));
            if a != b {
                return TestResult::error(format!("{op}: core {a}, oracle {b}"));
            }
        }
        if core.tree().dump() != oracle.tree().dump() {
            return TestResult::error("dumps differ");
        }
        TestResult::passed()
    }
    qc().tests(1000)
        .quickcheck(prop as fn(Bytes, bool) -> TestResult);
}

/// Ops over a tiny name pool, so sequences build real trees.
#[derive(Clone, Debug)]
struct PoolOp(Op);

impl Arbitrary for PoolOp {
    fn arbitrary(g: &mut Gen) -> Self {
        let path = |g: &mut Gen| {
            let n = 1 + usize::arbitrary(g) % 3;
            let comps: Vec<&str> = (0..n)
                .map(|_| *g.choose(&["a", "b", "c"]).unwrap())
                .collect();
            comps.join("/").into_bytes()
        };
        let slot = |g: &mut Gen| u8::arbitrary(g) % 3;
        let op = match u8::arbitrary(g) % 12 {
            0 | 1 => Op::Mkdir { path: path(g) },
            2 => Op::Create {
                path: path(g),
                content: b"c\n".to_vec(),
            },
            3 => Op::Listing { path: path(g) },
            4 => Op::Register {
                dir: path(g),
                rows: vec![Row::file("r", "1"), Row::dir("s")],
            },
            5 => Op::Unregister {
                header: 1 + u64::arbitrary(g) % 4,
            },
            6 => Op::Remove { path: path(g) },
            7 => Op::RemoveSubtree { path: path(g) },
            8 => Op::MarkPermanent { path: path(g) },
            9 => Op::Open {
                view: 0,
                slot: slot(g),
                path: path(g),
            },
            10 => Op::Read { slot: slot(g) },
            _ => Op::Close { slot: slot(g) },
        };
        PoolOp(op)
    }
}

fn twice<T: PseudoFs>(ops: &[PoolOp]) -> Result<String, String> {
    let mut x: Runner<T> = Runner::new(Limits::default());
    let mut y: Runner<T> = Runner::new(Limits::default());
    for op in ops {
        let (a, b) = (x.apply(&op.0), y.apply(&op.0));
        if a != b {
            return Err(format!("{}: {a} vs {b}", op.0));
        }
    }
    let (a, b) = (x.tree().dump(), y.tree().dump());
    if a == b {
        Ok(a)
    } else {
        Err(format!("dumps differ:\n{a}\n---\n{b}"))
    }
}

#[test]
fn dumps_are_deterministic() {
    fn prop(ops: Vec<PoolOp>) -> TestResult {
        match (twice::<Tree>(&ops), twice::<Oracle>(&ops)) {
            (Ok(_), Ok(_)) => TestResult::passed(),
            (Err(e), _) => TestResult::error(format!("core: {e}")),
            (_, Err(e)) => TestResult::error(format!("oracle: {e}")),
        }
    }
    qc().quickcheck(prop as fn(Vec<PoolOp>) -> TestResult);
}
