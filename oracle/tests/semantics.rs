//! The oracle against docs/SEMANTICS.md, operation by operation, error by error.

use pdtree::{Errno, Kind, Limits, Owner, PseudoFs, Row, Stats, ROOT_INO};
use pdtree_oracle::Oracle;

/// Runs a failing operation and checks it failed with `want` and changed nothing (§8.8).
fn fails<T: std::fmt::Debug>(
    o: &mut Oracle,
    want: Errno,
    op: impl FnOnce(&mut Oracle) -> Result<T, Errno>,
) {
    let before = o.dump();
    let got = op(o);
    assert_eq!(got.unwrap_err(), want);
    assert_eq!(o.dump(), before, "a failed operation changed the state");
    o.check_invariants().unwrap();
}

fn ok<T>(o: &mut Oracle, op: impl FnOnce(&mut Oracle) -> Result<T, Errno>) -> T {
    let got = op(o).unwrap_or_else(|e| panic!("unexpected {e}"));
    o.check_invariants().unwrap();
    got
}

fn long_name(n: usize) -> Vec<u8> {
    vec![b'n'; n]
}

fn stats(live: u64, allocated: u64, headers: u64, handles: u64) -> Stats {
    Stats {
        live,
        allocated,
        headers,
        handles,
    }
}

// ----- §1 entries --------------------------------------------------------------------------

#[test]
fn root_and_counters() {
    let o = Oracle::new();
    let st = o.stat(b"").unwrap();
    assert_eq!(st, o.stat(b"/").unwrap());
    assert_eq!(
        (st.ino, st.kind, st.nlink, st.size, st.owner, st.permanent),
        (ROOT_INO, Kind::Dir, 2, 0, Owner::Explicit, true)
    );
    assert_eq!(o.stats(), stats(1, 1, 0, 0));
    assert_eq!(o.limits(), Limits::default());
    o.check_invariants().unwrap();
    let d = Oracle::default();
    assert_eq!(d.dump(), o.dump());
}

#[test]
fn nlink_and_size_recomputed() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"a"));
    ok(&mut o, |o| o.mkdir(b"a/b"));
    ok(&mut o, |o| o.create(b"a/f", b"12345"));
    ok(&mut o, |o| o.symlink(b"a/l", b"../x"));
    ok(&mut o, |o| o.mkdir(b"a/c"));
    let a = o.stat(b"a").unwrap();
    assert_eq!((a.nlink, a.size), (4, 4));
    assert_eq!(o.stat(b"/").unwrap().nlink, 3);
    assert_eq!(o.stat(b"a/f").unwrap().size, 5);
    assert_eq!(o.stat(b"a/l").unwrap().size, 4);
    assert_eq!(o.stat(b"a/l").unwrap().nlink, 1);
    ok(&mut o, |o| o.remove(b"a/b"));
    let a = o.stat(b"a").unwrap();
    assert_eq!((a.nlink, a.size), (3, 3));
}

// ----- §2 names and paths --------------------------------------------------------------------

#[test]
fn path_errors_everywhere() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.create(b"f", b"x"));
    let too_long = vec![b'a'; 4097];
    let cases: [(&[u8], Errno); 9] = [
        (&too_long, Errno::ENAMETOOLONG),
        (b"a//b", Errno::EINVAL),
        (b"a/", Errno::EINVAL),
        (b"//", Errno::EINVAL),
        (b"./a", Errno::EINVAL),
        (b"x/..", Errno::EINVAL),
        (b"x\0y", Errno::EINVAL),
        (b"missing/x", Errno::ENOENT),
        (b"f/x", Errno::ENOTDIR),
    ];
    for (path, want) in cases {
        fails(&mut o, want, |o| o.mkdir(path));
        fails(&mut o, want, |o| o.create(path, b""));
        fails(&mut o, want, |o| o.symlink(path, b"t"));
        fails(&mut o, want, |o| o.listing(path));
        fails(&mut o, want, |o| o.stat(path));
        fails(&mut o, want, |o| o.remove(path));
        fails(&mut o, want, |o| o.remove_subtree(path));
        fails(&mut o, want, |o| o.mark_permanent(path));
        fails(&mut o, want, |o| o.open(path));
    }
    // A 256-byte component.
    let mut p = b"a/".to_vec();
    p.extend(long_name(256));
    fails(&mut o, Errno::ENAMETOOLONG, |o| o.stat(&p));
    // Syntax is checked over the whole path before resolution.
    fails(&mut o, Errno::EINVAL, |o| o.stat(b"missing/.."));
    fails(&mut o, Errno::EINVAL, |o| o.stat(b"f/x/"));
    // A missing final component, a 255-byte one.
    fails(&mut o, Errno::ENOENT, |o| o.stat(b"nope"));
    fails(&mut o, Errno::ENOENT, |o| o.stat(&long_name(255)));
    // Non-UTF-8 and odd bytes are fine.
    ok(&mut o, |o| o.mkdir(b"\xff sp\\\t"));
    assert!(o.stat(b"/\xff sp\\\t").is_ok());
}

// ----- §4 creating ---------------------------------------------------------------------------

#[test]
fn create_check_order() {
    let lim = Limits {
        max_entries: 4,
        max_content: 8,
        ..Limits::default()
    };
    let mut o = Oracle::with_limits(lim);
    assert_eq!(o.limits(), lim);
    assert_eq!(ok(&mut o, |o| o.mkdir(b"d")), 2);
    assert_eq!(ok(&mut o, |o| o.create(b"d/f", b"12345678")), 3);
    // 1. syntax beats 2. content
    fails(&mut o, Errno::EINVAL, |o| o.create(b"a//b", b"123456789"));
    // 2. content beats 3. root
    fails(&mut o, Errno::EFBIG, |o| o.create(b"/", b"123456789"));
    fails(&mut o, Errno::EFBIG, |o| o.symlink(b"/", b"123456789"));
    fails(&mut o, Errno::EINVAL, |o| o.symlink(b"/", b""));
    // 3. root beats 4. parent
    fails(&mut o, Errno::EEXIST, |o| o.mkdir(b"/"));
    fails(&mut o, Errno::EEXIST, |o| o.create(b"", b""));
    fails(&mut o, Errno::EEXIST, |o| o.listing(b"/"));
    // 4. parent errors
    fails(&mut o, Errno::ENOENT, |o| o.mkdir(b"x/y"));
    fails(&mut o, Errno::ENOTDIR, |o| o.mkdir(b"d/f/y"));
    fails(&mut o, Errno::ENOTDIR, |o| o.symlink(b"d/f/y/z", b"t"));
    // 6. name taken
    fails(&mut o, Errno::EEXIST, |o| o.mkdir(b"d"));
    fails(&mut o, Errno::EEXIST, |o| o.listing(b"d/f"));
    // 6. beats 7.
    assert_eq!(ok(&mut o, |o| o.symlink(b"d/l", b"12345678")), 4);
    assert_eq!(o.stats().allocated, 4);
    fails(&mut o, Errno::EEXIST, |o| o.mkdir(b"d/l"));
    // 7. entry limit
    fails(&mut o, Errno::ENOSPC, |o| o.mkdir(b"e"));
    fails(&mut o, Errno::ENOSPC, |o| o.listing(b"d/g"));
    // Room again after a removal; inode numbers are never reused.
    ok(&mut o, |o| o.remove(b"d/l"));
    assert_eq!(ok(&mut o, |o| o.listing(b"d/g")), 5);
    assert!(o.dump().contains("next ino=6 "));
}

#[test]
fn mount_point_blocks_creation() {
    let mut o = Oracle::new();
    let h = ok(&mut o, |o| o.register(b"fs/binfmt_misc", &[]));
    assert_eq!(h, 1);
    // 5. mount point beats 6. name taken and 7. limit
    fails(&mut o, Errno::EROFS, |o| o.mkdir(b"fs/binfmt_misc/x"));
    fails(&mut o, Errno::EROFS, |o| o.create(b"fs/binfmt_misc/x", b""));
    fails(&mut o, Errno::EROFS, |o| {
        o.symlink(b"fs/binfmt_misc/x", b"t")
    });
    fails(&mut o, Errno::EROFS, |o| o.listing(b"fs/binfmt_misc/x"));
    fails(&mut o, Errno::EROFS, |o| {
        o.register(b"fs/binfmt_misc/x", &[])
    });
    fails(&mut o, Errno::EROFS, |o| {
        o.register(b"fs/binfmt_misc", &[Row::file("status", "1")])
    });
    // The parent of the mount point is not one.
    ok(&mut o, |o| o.mkdir(b"fs/other"));
    // A second empty table at the mount point succeeds.
    let h2 = ok(&mut o, |o| o.register(b"/fs/binfmt_misc", &[]));
    assert_eq!(h2, 2);
    assert_eq!(o.stat(b"fs/binfmt_misc").unwrap().owner, Owner::Implicit);
    ok(&mut o, |o| o.unregister(h));
    fails(&mut o, Errno::EROFS, |o| o.mkdir(b"fs/binfmt_misc/x"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"fs/binfmt_misc"));
    ok(&mut o, |o| o.unregister(h2));
    // fs still holds fs/other, so it stays and becomes explicit; binfmt_misc is gone.
    assert_eq!(o.stat(b"fs").unwrap().owner, Owner::Explicit);
    fails(&mut o, Errno::ENOENT, |o| o.stat(b"fs/binfmt_misc"));
    // A mount point at the root.
    let mut o = Oracle::new();
    let h = ok(&mut o, |o| o.register(b"/", &[]));
    fails(&mut o, Errno::EROFS, |o| o.mkdir(b"a"));
    fails(&mut o, Errno::EROFS, |o| o.register(b"a", &[]));
    ok(&mut o, |o| o.unregister(h));
    ok(&mut o, |o| o.mkdir(b"a"));
    fails(&mut o, Errno::EINVAL, |o| o.register(b"", &[]));
}

#[test]
fn register_check_order() {
    let lim = Limits {
        max_entries: 8,
        max_content: 4,
        max_table_rows: 3,
        ..Limits::default()
    };
    let mut o = Oracle::with_limits(lim);
    ok(&mut o, |o| o.create(b"f", b""));
    ok(&mut o, |o| o.mkdir(b"d"));
    ok(&mut o, |o| o.create(b"d/x", b""));
    let four = [Row::dir("a"), Row::dir("b"), Row::dir("c"), Row::dir("d")];
    // 1. syntax beats 2. size
    fails(&mut o, Errno::EINVAL, |o| o.register(b"a//b", &four));
    // 2. size beats 3. rows
    fails(&mut o, Errno::E2BIG, |o| {
        o.register(
            b"q",
            &[Row::dir(""), Row::dir("b"), Row::dir("c"), Row::dir("d")],
        )
    });
    // 3. rows in order: name then content, first bad row decides
    fails(&mut o, Errno::EINVAL, |o| o.register(b"q", &[Row::dir("")]));
    fails(&mut o, Errno::EINVAL, |o| {
        o.register(b"q", &[Row::dir("a/b")])
    });
    fails(&mut o, Errno::EINVAL, |o| {
        o.register(b"q", &[Row::dir("..")])
    });
    fails(&mut o, Errno::ENAMETOOLONG, |o| {
        o.register(b"q", &[Row::dir(long_name(256)), Row::dir(".")])
    });
    fails(&mut o, Errno::EFBIG, |o| {
        o.register(b"q", &[Row::file("a", "12345"), Row::dir(".")])
    });
    fails(&mut o, Errno::EINVAL, |o| {
        o.register(b"q", &[Row::file(".", "12345"), Row::dir("a")])
    });
    // 3. beats 4. duplicates
    fails(&mut o, Errno::EFBIG, |o| {
        o.register(
            b"q",
            &[Row::dir("a"), Row::dir("a"), Row::file("b", "12345")],
        )
    });
    // 4. duplicates beat 5. resolution
    fails(&mut o, Errno::EEXIST, |o| {
        o.register(b"f/q", &[Row::dir("a"), Row::file("a", "")])
    });
    // 5. an existing non-directory, the last one included
    fails(&mut o, Errno::ENOTDIR, |o| {
        o.register(b"f/q", &[Row::dir("a")])
    });
    fails(&mut o, Errno::ENOTDIR, |o| {
        o.register(b"f", &[Row::dir("a")])
    });
    fails(&mut o, Errno::ENOTDIR, |o| o.register(b"d/x/y", &[]));
    // 7. a row name already present
    fails(&mut o, Errno::EEXIST, |o| {
        o.register(b"d", &[Row::dir("x")])
    });
    fails(&mut o, Errno::EEXIST, |o| {
        o.register(b"/", &[Row::dir("f")])
    });
    // 8. entry limit: 4 allocated, 8 max
    fails(&mut o, Errno::ENOSPC, |o| {
        o.register(b"p/q/r", &[Row::dir("a"), Row::dir("b")])
    });
    // 7. beats 8.
    fails(&mut o, Errno::EEXIST, |o| {
        o.register(b"d", &[Row::dir("a"), Row::dir("b"), Row::dir("x")])
    });
    // 9. an empty table into a non-empty directory, checked last
    fails(&mut o, Errno::EINVAL, |o| o.register(b"d", &[]));
    fails(&mut o, Errno::EINVAL, |o| o.register(b"/", &[]));
    // Exactly at the limit succeeds; header ids start at 1.
    assert_eq!(
        ok(&mut o, |o| o
            .register(b"p/q", &[Row::dir("a"), Row::dir("b")])),
        1
    );
    assert_eq!(o.stats(), stats(8, 8, 1, 0));
    // Limit beats "mount point not empty".
    fails(&mut o, Errno::ENOSPC, |o| o.register(b"d/new", &[]));
    fails(&mut o, Errno::EINVAL, |o| o.register(b"d", &[]));
}

#[test]
fn register_creates_implicit_then_rows() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"net"));
    let h = ok(&mut o, |o| {
        o.register(
            b"net/ipv4/conf",
            &[Row::file("forwarding", "0\n"), Row::dir("neigh")],
        )
    });
    assert_eq!(h, 1);
    let ino = |o: &Oracle, p: &[u8]| o.stat(p).unwrap().ino;
    assert_eq!(ino(&o, b"net/ipv4"), 3);
    assert_eq!(ino(&o, b"net/ipv4/conf"), 4);
    assert_eq!(ino(&o, b"net/ipv4/conf/forwarding"), 5);
    assert_eq!(ino(&o, b"net/ipv4/conf/neigh"), 6);
    assert_eq!(o.stat(b"net").unwrap().owner, Owner::Explicit);
    assert_eq!(o.stat(b"net/ipv4").unwrap().owner, Owner::Implicit);
    assert_eq!(
        o.stat(b"net/ipv4/conf/neigh").unwrap().owner,
        Owner::Header(1)
    );
    assert!(o.dump().contains(
        "entry /net dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=1 "
    ));
    // A second header through the same directories.
    let h2 = ok(&mut o, |o| {
        o.register(b"net/ipv4/conf/neigh/eth0", &[Row::file("x", "")])
    });
    assert_eq!(h2, 2);
    assert!(o
        .dump()
        .contains("entry /net/ipv4/conf/neigh dir ino=6 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=header:1 hrefs=1 "));
    assert!(o.dump().contains(
        "entry /net/ipv4 dir ino=3 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=2 "
    ));
    // Header-owned and in-use entries cannot be removed.
    fails(&mut o, Errno::EBUSY, |o| {
        o.remove(b"net/ipv4/conf/forwarding")
    });
    fails(&mut o, Errno::EBUSY, |o| {
        o.remove(b"net/ipv4/conf/neigh/eth0")
    });
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"net"));
    fails(&mut o, Errno::EINVAL, |o| o.mark_permanent(b"net/ipv4"));
    fails(&mut o, Errno::EINVAL, |o| {
        o.mark_permanent(b"net/ipv4/conf/neigh")
    });
    // unregister checks: hrefs on a dir row, then children.
    fails(&mut o, Errno::EBUSY, |o| o.unregister(h));
    fails(&mut o, Errno::ENOENT, |o| o.unregister(0));
    fails(&mut o, Errno::ENOENT, |o| o.unregister(3));
    ok(&mut o, |o| o.unregister(h2));
    fails(&mut o, Errno::ENOENT, |o| o.unregister(h2));
    // eth0 was implicit, emptied, hrefs 0 → removed. neigh stays (header 1's row).
    fails(&mut o, Errno::ENOENT, |o| {
        o.stat(b"net/ipv4/conf/neigh/eth0")
    });
    ok(&mut o, |o| o.create(b"net/ipv4/conf/neigh/arp", b""));
    fails(&mut o, Errno::ENOTEMPTY, |o| o.unregister(h));
    ok(&mut o, |o| o.remove(b"net/ipv4/conf/neigh/arp"));
    // An explicit file inside an implicit directory keeps it alive (as explicit).
    ok(&mut o, |o| o.create(b"net/ipv4/keep", b""));
    ok(&mut o, |o| o.unregister(h));
    fails(&mut o, Errno::ENOENT, |o| o.stat(b"net/ipv4/conf"));
    assert_eq!(o.stat(b"net/ipv4").unwrap().owner, Owner::Explicit);
    assert_eq!(o.stat(b"net").unwrap().owner, Owner::Explicit);
    assert_eq!(o.stats(), stats(4, 4, 0, 0));
    ok(&mut o, |o| o.remove_subtree(b"net"));
    assert!(o.dump().contains("next ino=11 header=3 handle=1 ns=1\n"));
}

#[test]
fn unregister_busy_checked_on_all_rows_first() {
    let mut o = Oracle::new();
    let h = ok(&mut o, |o| {
        o.register(b"t", &[Row::dir("a"), Row::dir("b")])
    });
    ok(&mut o, |o| o.create(b"t/a/x", b""));
    ok(&mut o, |o| o.register(b"t/b/sub", &[]));
    // Row a has children, row b has hrefs: EBUSY wins although a comes first.
    fails(&mut o, Errno::EBUSY, |o| o.unregister(h));
}

#[test]
fn unregister_innermost_first() {
    let mut o = Oracle::new();
    let h = ok(&mut o, |o| o.register(b"a/b/c", &[Row::file("f", "1")]));
    assert_eq!(o.stats(), stats(5, 5, 1, 0));
    ok(&mut o, |o| o.unregister(h));
    assert_eq!(o.stats(), stats(1, 1, 0, 0));
    // Implicit a and b held by two headers: the first unregister keeps them implicit.
    let h1 = ok(&mut o, |o| o.register(b"a/b", &[Row::file("f", "1")]));
    let h2 = ok(&mut o, |o| o.register(b"a/c", &[]));
    ok(&mut o, |o| o.unregister(h1));
    assert_eq!(o.stat(b"a").unwrap().owner, Owner::Implicit);
    fails(&mut o, Errno::ENOENT, |o| o.stat(b"a/b"));
    ok(&mut o, |o| o.unregister(h2));
    assert_eq!(o.stats(), stats(1, 1, 0, 0));
}

// ----- §5 looking up -------------------------------------------------------------------------

#[test]
fn lookup_at_check_order() {
    let mut o = Oracle::new();
    let d = ok(&mut o, |o| o.mkdir(b"d"));
    let f = ok(&mut o, |o| o.create(b"d/f", b"abc"));
    assert_eq!(o.lookup_at(d, b"f").unwrap(), o.stat(b"d/f").unwrap());
    assert_eq!(o.lookup_at(ROOT_INO, b"d").unwrap().ino, d);
    assert_eq!(o.lookup_at(99, b"/"), Err(Errno::EINVAL));
    assert_eq!(o.lookup_at(99, b""), Err(Errno::EINVAL));
    assert_eq!(o.lookup_at(99, &long_name(256)), Err(Errno::ENAMETOOLONG));
    assert_eq!(o.lookup_at(99, b"f"), Err(Errno::ENOENT));
    assert_eq!(o.lookup_at(0, b"f"), Err(Errno::ENOENT));
    assert_eq!(o.lookup_at(f, b"f"), Err(Errno::ENOTDIR));
    assert_eq!(o.lookup_at(d, b"g"), Err(Errno::ENOENT));
    // A removed-but-open entry is not live.
    let h = ok(&mut o, |o| o.open(b"d/f"));
    ok(&mut o, |o| o.remove(b"d/f"));
    assert_eq!(o.lookup_at(f, b"x"), Err(Errno::ENOENT));
    assert_eq!(o.readdir(f, 0, 1), Err(Errno::ENOENT));
    ok(&mut o, |o| o.close(h));
}

#[test]
fn children_in_is_a_whole_readdir_in_one_call() {
    let lim = Limits {
        max_readdir: 3,
        ..Limits::default()
    };
    let mut o = Oracle::with_limits(lim);
    let d = ok(&mut o, |o| o.mkdir(b"d"));
    for n in 0..10 {
        ok(&mut o, |o| o.create(format!("d/f{n}").as_bytes(), b""));
    }
    ok(&mut o, |o| o.remove(b"d/f4"));
    let k = ok(&mut o, |o| o.ns_create(0, 0));
    ok(&mut o, |o| o.register_ns(k, b"d", &[Row::file("own", "x")]));
    for view in [0, k] {
        let whole = o.children_in(view, d).unwrap();
        assert_eq!(
            whole,
            pdtree::read_all_in(&o, view, d, 3).unwrap(),
            "view {view}"
        );
        assert_eq!(whole.len(), if view == 0 { 9 } else { 10 });
    }
    let f = o.stat(b"d/f0").unwrap().ino;
    assert_eq!(o.children_in(0, f), Err(Errno::ENOTDIR));
    assert_eq!(o.children_in(0, 999), Err(Errno::ENOENT));
    assert_eq!(o.children_in(k + 1, d), Err(Errno::ENOENT));
}

#[test]
fn lookups_in_answers_what_a_lookup_at_in_per_name_answers() {
    let mut o = Oracle::new();
    let d = ok(&mut o, |o| o.mkdir(b"d"));
    for n in ["a", "b", "c"] {
        ok(&mut o, |o| o.mkdir(format!("d/{n}").as_bytes()));
        ok(&mut o, |o| o.create(format!("d/f{n}").as_bytes(), b"12"));
    }
    let k = ok(&mut o, |o| o.ns_create(7, 7));
    ok(&mut o, |o| o.register_ns(k, b"d", &[Row::dir("own")]));
    let f = o.stat(b"d/fa").unwrap().ino;
    let names: [&[u8]; 9] = [b"c", b"own", b"a", b"zz", b"", b"a/b", b"fb", b"a", b"."];
    let mut asked = 0;
    for view in [0, k, k + 1] {
        for dir in [ROOT_INO, d, f, 999] {
            let one_by_one: Vec<_> = names.iter().map(|n| o.lookup_at_in(view, dir, n)).collect();
            assert_eq!(
                o.lookups_in(view, dir, &names),
                one_by_one,
                "view {view}, dir {dir}"
            );
            asked += one_by_one.iter().filter(|a| a.is_ok()).count();
        }
    }
    // "c", "a" twice and "fb" in d in both views, "own" in k's, "d" never asked.
    assert_eq!(asked, 4 + 5);
    assert_eq!(o.lookups_in(0, d, &[]), []);
}

#[test]
fn readdir_pages_and_positions() {
    let lim = Limits {
        max_readdir: 3,
        max_namespaces: 65_536,
        ..Limits::default()
    };
    let mut o = Oracle::with_limits(lim);
    let d = ok(&mut o, |o| o.mkdir(b"d")); // 2
    for n in ["a", "b", "c", "e", "f"] {
        ok(&mut o, |o| o.create(format!("d/{n}").as_bytes(), b""));
    } // 3..=7
    let f = o.stat(b"d/a").unwrap().ino;
    assert_eq!(o.readdir(d, 0, 0), Err(Errno::EINVAL));
    assert_eq!(o.readdir(d, 0, 4), Err(Errno::EINVAL));
    assert_eq!(o.readdir(999, 0, 4), Err(Errno::EINVAL));
    assert_eq!(o.readdir(999, 0, 3), Err(Errno::ENOENT));
    assert_eq!(o.readdir(f, 0, 3), Err(Errno::ENOTDIR));
    let p = o.readdir(d, 0, 3).unwrap();
    let names: Vec<_> = p.entries.iter().map(|e| e.name.clone()).collect();
    assert_eq!(names, [b"a", b"b", b"c"]);
    assert_eq!(p.next_pos, 6);
    assert_eq!(p.entries[0].kind, Kind::File);
    // pos in the middle, not at an existing inode after a removal
    ok(&mut o, |o| o.remove(b"d/e")); // ino 6
    let p = o.readdir(d, 6, 3).unwrap();
    assert_eq!(p.entries.len(), 1);
    assert_eq!(p.entries[0].ino, 7);
    assert_eq!(p.next_pos, 8);
    let p = o.readdir(d, 4, 2).unwrap();
    assert_eq!(p.entries.iter().map(|e| e.ino).collect::<Vec<_>>(), [4, 5]);
    assert_eq!(p.next_pos, 6);
    // end of directory: pos unchanged
    let p = o.readdir(d, 8, 3).unwrap();
    assert!(p.entries.is_empty());
    assert_eq!(p.next_pos, 8);
    let p = o.readdir(d, u64::MAX, 3).unwrap();
    assert_eq!(p.next_pos, u64::MAX);
    // A child created mid-scan is above the cursor.
    let p = o.readdir(d, 0, 2).unwrap();
    ok(&mut o, |o| o.mkdir(b"d/late"));
    ok(&mut o, |o| o.remove(b"d/c"));
    let mut seen: Vec<u64> = p.entries.iter().map(|e| e.ino).collect();
    let mut pos = p.next_pos;
    loop {
        let p = o.readdir(d, pos, 2).unwrap();
        if p.entries.is_empty() {
            break;
        }
        seen.extend(p.entries.iter().map(|e| e.ino));
        pos = p.next_pos;
    }
    assert_eq!(seen, [3, 4, 7, 8]);
    // The root lists only its children; no . or ..
    let p = o.readdir(ROOT_INO, 0, 3).unwrap();
    assert_eq!(p.entries.len(), 1);
    assert_eq!(p.entries[0].kind, Kind::Dir);
}

// ----- §6 removing ---------------------------------------------------------------------------

#[test]
fn remove_check_order() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"d"));
    ok(&mut o, |o| o.create(b"d/f", b""));
    ok(&mut o, |o| o.create(b"p", b""));
    ok(&mut o, |o| o.mark_permanent(b"p"));
    ok(&mut o, |o| o.register(b"h", &[Row::file("r", "")]));
    ok(&mut o, |o| o.mkdir(b"e"));
    ok(&mut o, |o| o.register(b"e", &[]));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"/"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b""));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"p"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"h/r"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"h"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"e")); // explicit, hrefs 1
    fails(&mut o, Errno::ENOTEMPTY, |o| o.remove(b"d"));
    ok(&mut o, |o| o.remove(b"d/f"));
    ok(&mut o, |o| o.remove(b"d"));
    fails(&mut o, Errno::ENOENT, |o| o.remove(b"d"));
}

#[test]
fn remove_subtree_is_all_or_nothing() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"a"));
    ok(&mut o, |o| o.mkdir(b"a/b"));
    ok(&mut o, |o| o.create(b"a/b/f", b""));
    ok(&mut o, |o| o.mkdir(b"a/c"));
    ok(&mut o, |o| o.create(b"a/c/deep", b""));
    ok(&mut o, |o| o.mark_permanent(b"a/c/deep"));
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"a"));
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"a/c"));
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"/"));
    fails(&mut o, Errno::ENOENT, |o| o.remove_subtree(b"a/x"));
    assert_eq!(ok(&mut o, |o| o.remove_subtree(b"a/b")), 2);
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"a/c/deep"));
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"a/c/deep"));
    ok(&mut o, |o| o.create(b"a/c/f", b""));
    assert_eq!(o.stats(), stats(5, 5, 0, 0));
}

#[test]
fn remove_subtree_counts_and_header_blocks() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"x"));
    ok(&mut o, |o| o.create(b"x/f", b""));
    assert_eq!(ok(&mut o, |o| o.remove_subtree(b"x/f")), 1);
    ok(&mut o, |o| o.mkdir(b"x/y"));
    ok(&mut o, |o| o.register(b"x/y/z", &[]));
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"x"));
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"x"));
    ok(&mut o, |o| o.register(b"x", &[Row::file("r", "")]));
    fails(&mut o, Errno::EBUSY, |o| o.remove_subtree(b"x"));
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"x"));
    ok(&mut o, |o| o.listing(b"x/ls"));
    ok(&mut o, |o| o.mkdir(b"x/s"));
    ok(&mut o, |o| o.symlink(b"x/s/l", b"t"));
    assert_eq!(ok(&mut o, |o| o.remove_subtree(b"/x")), 4);
    assert_eq!(o.stats(), stats(1, 1, 0, 0));
}

#[test]
fn deep_chain_of_2000() {
    let mut o = Oracle::new();
    let mut path = Vec::new();
    for i in 0..2000 {
        if i > 0 {
            path.push(b'/');
        }
        path.push(b'a');
        o.mkdir(&path).unwrap();
    }
    assert_eq!(path.len(), 3999);
    assert_eq!(o.stat(&path).unwrap().ino, 2001);
    let mut file = path.clone();
    file.extend_from_slice(b"/f");
    o.create(&file, b"bottom").unwrap();
    let h = o.open(&file).unwrap();
    o.check_invariants().unwrap();
    let dump = o.dump();
    assert_eq!(
        dump.lines().filter(|l| l.starts_with("entry ")).count(),
        2002
    );
    assert_eq!(o.stats(), stats(2002, 2002, 0, 1));
    // A permanent entry at the bottom blocks the whole chain.
    let mut perm = path.clone();
    perm.extend_from_slice(b"/p");
    o.create(&perm, b"").unwrap();
    o.mark_permanent(&perm).unwrap();
    let before = o.dump();
    assert_ne!(before, dump);
    assert_eq!(o.remove_subtree(b"a"), Err(Errno::EBUSY));
    assert_eq!(o.remove_subtree(&path), Err(Errno::EBUSY));
    assert_eq!(o.remove(&perm), Err(Errno::EBUSY));
    assert_eq!(o.dump(), before);
    // Rebuild without the permanent entry and remove everything.
    let mut o2 = Oracle::new();
    let mut path = Vec::new();
    for i in 0..2000 {
        if i > 0 {
            path.push(b'/');
        }
        path.push(b'a');
        o2.mkdir(&path).unwrap();
    }
    path.extend_from_slice(b"/f");
    o2.create(&path, b"bottom").unwrap();
    let h2 = o2.open(&path).unwrap();
    assert_eq!(o2.remove_subtree(b"a"), Ok(2001));
    assert_eq!(o2.stats(), stats(1, 2, 0, 1));
    o2.check_invariants().unwrap();
    assert_eq!(o2.read(h2), Err(Errno::ENOENT));
    o2.close(h2).unwrap();
    assert_eq!(o2.stats(), stats(1, 1, 0, 0));
    o2.check_invariants().unwrap();
    drop(o);
    let _ = h;
}

// ----- §7 permanent entries, handles, generated content -------------------------------------

#[test]
fn mark_permanent_rules() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mark_permanent(b"/"));
    ok(&mut o, |o| o.mkdir(b"d"));
    ok(&mut o, |o| o.mark_permanent(b"d"));
    ok(&mut o, |o| o.mark_permanent(b"d"));
    assert!(o.stat(b"d").unwrap().permanent);
    fails(&mut o, Errno::EBUSY, |o| o.remove(b"d"));
    fails(&mut o, Errno::ENOENT, |o| o.mark_permanent(b"x"));
    ok(&mut o, |o| o.register(b"i", &[Row::file("r", "")]));
    fails(&mut o, Errno::EINVAL, |o| o.mark_permanent(b"i"));
    fails(&mut o, Errno::EINVAL, |o| o.mark_permanent(b"i/r"));
}

#[test]
fn handles_and_permanent_fast_path() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"d"));
    ok(&mut o, |o| o.create(b"d/f", b"hello"));
    ok(&mut o, |o| o.symlink(b"d/l", b"../target"));
    fails(&mut o, Errno::EISDIR, |o| o.open(b"d"));
    fails(&mut o, Errno::EISDIR, |o| o.open(b"/"));
    let h1 = ok(&mut o, |o| o.open(b"d/f"));
    assert_eq!(h1, 1);
    let h2 = ok(&mut o, |o| o.open(b"d/l"));
    assert_eq!(o.read(h1).unwrap(), b"hello");
    assert_eq!(o.read(h2).unwrap(), b"../target");
    assert_eq!(o.stat(b"d/f").unwrap().open_refs, 1);
    // Marked after an open: references stop being tracked at once; new opens take none,
    // and closing the earlier handle gives nothing back.
    ok(&mut o, |o| o.mark_permanent(b"d/f"));
    assert_eq!(o.stat(b"d/f").unwrap().open_refs, 0);
    let h3 = ok(&mut o, |o| o.open(b"d/f"));
    assert_eq!(h3, 3);
    assert_eq!(o.stat(b"d/f").unwrap().open_refs, 0);
    assert_eq!(o.read(h1).unwrap(), b"hello");
    ok(&mut o, |o| o.close(h1));
    assert_eq!(o.stat(b"d/f").unwrap().open_refs, 0);
    ok(&mut o, |o| o.close(h3));
    assert_eq!(o.stat(b"d/f").unwrap().open_refs, 0);
    fails(&mut o, Errno::EBADF, |o| o.close(h1));
    fails(&mut o, Errno::EBADF, |o| o.read(h1));
    fails(&mut o, Errno::EBADF, |o| o.read(0));
    fails(&mut o, Errno::EBADF, |o| o.close(99));
    assert_eq!(o.stats(), stats(4, 4, 0, 1));
    // Ids are never reused.
    assert_eq!(ok(&mut o, |o| o.open(b"d/l")), 4);
}

#[test]
fn removed_but_open_lifecycle() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.create(b"f", b"data"));
    let f_ino = o.stat(b"f").unwrap().ino;
    let h1 = ok(&mut o, |o| o.open(b"f"));
    let h2 = ok(&mut o, |o| o.open(b"f"));
    assert_eq!(o.stat(b"f").unwrap().open_refs, 2);
    ok(&mut o, |o| o.remove(b"f"));
    assert_eq!(o.stats(), stats(1, 2, 0, 2));
    assert!(o.dump().contains(
        "handle 1 ino=2 removed=1 pos=0 snap=-\nhandle 2 ino=2 removed=1 pos=0 snap=-\n"
    ));
    fails(&mut o, Errno::ENOENT, |o| o.read(h1));
    fails(&mut o, Errno::ENOENT, |o| o.stat(b"f"));
    // The name is free again; a new entry gets a new inode.
    let again = ok(&mut o, |o| o.create(b"f", b"new"));
    assert_ne!(again, f_ino);
    assert_eq!(o.stats(), stats(2, 3, 0, 2));
    ok(&mut o, |o| o.close(h1));
    assert_eq!(o.stats(), stats(2, 3, 0, 1));
    fails(&mut o, Errno::ENOENT, |o| o.read(h2));
    ok(&mut o, |o| o.close(h2));
    assert_eq!(o.stats(), stats(2, 2, 0, 0));
    // A removed-but-open entry still counts against max_entries.
    let mut o = Oracle::with_limits(Limits {
        max_entries: 2,
        ..Limits::default()
    });
    ok(&mut o, |o| o.create(b"f", b""));
    let h = ok(&mut o, |o| o.open(b"f"));
    ok(&mut o, |o| o.remove(b"f"));
    fails(&mut o, Errno::ENOSPC, |o| o.create(b"g", b""));
    ok(&mut o, |o| o.close(h));
    ok(&mut o, |o| o.create(b"g", b""));
    // A header row file held open survives unregister until closed.
    let mut o = Oracle::new();
    let hd = ok(&mut o, |o| o.register(b"sys", &[Row::file("v", "1")]));
    let h = ok(&mut o, |o| o.open(b"sys/v"));
    assert_eq!(o.read(h).unwrap(), b"1");
    ok(&mut o, |o| o.unregister(hd));
    assert_eq!(o.stats(), stats(1, 2, 0, 1));
    fails(&mut o, Errno::ENOENT, |o| o.read(h));
    ok(&mut o, |o| o.close(h));
    assert_eq!(o.stats(), stats(1, 1, 0, 0));
}

#[test]
fn listing_rendering() {
    let mut o = Oracle::new();
    ok(&mut o, |o| o.mkdir(b"d"));
    ok(&mut o, |o| o.mkdir(b"d/sub"));
    ok(&mut o, |o| o.create(b"d/file", b"xyz"));
    let g = ok(&mut o, |o| o.listing(b"d/ls"));
    ok(&mut o, |o| o.symlink(b"d/link", b"t"));
    let want = b"d\tsub\nf\tfile\ng\tls\nl\tlink\n";
    assert_eq!(o.stat(b"d/ls").unwrap().size, want.len() as u64);
    let h = ok(&mut o, |o| o.open(b"d/ls"));
    // Rendered at read time, not open time.
    ok(&mut o, |o| o.mkdir(b"d/z\xff z"));
    ok(&mut o, |o| o.remove(b"d/sub"));
    let now = b"f\tfile\ng\tls\nl\tlink\nd\tz\xff z\n";
    assert_eq!(o.read(h).unwrap(), now);
    assert_eq!(o.stat(b"d/ls").unwrap().size, now.len() as u64);
    assert_eq!(o.lookup_at(2, b"ls").unwrap().ino, g);
    // An empty-directory rendering is just the listing itself.
    ok(&mut o, |o| o.listing(b"solo"));
    let h2 = ok(&mut o, |o| o.open(b"solo"));
    assert_eq!(o.read(h2).unwrap(), b"d\td\ng\tsolo\n");
}

// ----- §9 canonical dump ---------------------------------------------------------------------

#[test]
fn dump_of_a_small_tree() {
    let mut o = Oracle::new();
    o.mkdir(b"net").unwrap(); // 2
    o.create(b"net/dev", b"eth0\n").unwrap(); // 3
    o.register(
        b"net/ipv4/conf",
        &[Row::file("forward ing", "1"), Row::dir("neigh")],
    )
    .unwrap(); // ipv4 4, conf 5, rows 6 and 7; header 1
    o.symlink(b"lnk", b"net/dev").unwrap(); // 8
    o.listing(b"net/ls").unwrap(); // 9
    o.mark_permanent(b"net/dev").unwrap();
    o.mkdir(b"mnt").unwrap(); // 10
    o.register(b"mnt", &[]).unwrap(); // header 2
    o.create(b"a\\b", b"").unwrap(); // 11
    let h1 = o.open(b"lnk").unwrap();
    let h2 = o.open(b"net/dev").unwrap();
    o.create(b"gone", b"x").unwrap(); // 12
    let h3 = o.open(b"gone").unwrap();
    o.remove(b"gone").unwrap();
    assert_eq!((h1, h2, h3), (1, 2, 3));
    let want = "\
entry / dir ino=1 nlink=4 size=4 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
entry /net dir ino=2 nlink=3 size=3 mode=0555 uid=0 gid=0 owner=explicit hrefs=1 perm=0 open=0
entry /net/dev file ino=3 nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
entry /net/ipv4 dir ino=4 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
entry /net/ipv4/conf dir ino=5 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
entry /net/ipv4/conf/forward\\x20ing file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
entry /net/ipv4/conf/neigh dir ino=7 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
entry /net/ls listing ino=9 nlink=1 size=18 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
entry /lnk symlink ino=8 nlink=1 size=7 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=1
entry /mnt dir ino=10 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=1 perm=0 open=0
entry /a\\\\b file ino=11 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
header 1 dir=/net/ipv4/conf rows=2
row 1 forward\\x20ing file
row 1 neigh dir
header 2 dir=/mnt rows=0
handle 1 ino=8 removed=0 pos=0 snap=-
handle 2 ino=3 removed=0 pos=0 snap=-
handle 3 ino=12 removed=1 pos=0 snap=-
ns 0 uid=0 gid=0
next ino=13 header=3 handle=4 ns=1
stats live=11 allocated=12 headers=2 handles=3
";
    assert_eq!(o.dump(), want);
    o.check_invariants().unwrap();
}

#[test]
fn failed_counters_untouched() {
    // No failed operation takes an inode, header or handle number.
    let mut o = Oracle::new();
    let _ = o.mkdir(b"a/b");
    let _ = o.register(b"x", &[Row::dir("a"), Row::dir("a")]);
    let _ = o.open(b"nope");
    assert_eq!(o.mkdir(b"a"), Ok(2));
    assert_eq!(o.register(b"x", &[]), Ok(1));
    o.create(b"f", b"").unwrap();
    assert_eq!(o.open(b"f"), Ok(1));
}

/// `clone_from` (which the differential runner uses to copy the oracle before every
/// state-changing op) gives a copy equal to its source whatever the destination held: a
/// bigger tree, a smaller one, other headers, handles and counters.
#[test]
fn clone_from_copies_every_field() {
    let mut big = Oracle::with_limits(Limits::default());
    ok(&mut big, |o| {
        o.register(b"net/ipv4/conf/eth0", &[Row::file("fw", "0\n")])
    });
    ok(&mut big, |o| o.create(b"/net/dev", b"x"));
    let h = ok(&mut big, |o| o.open(b"/net/dev"));
    ok(&mut big, |o| o.create(b"/gone", b""));
    ok(&mut big, |o| o.remove(b"/gone"));
    let mut small = Oracle::with_limits(Limits {
        max_entries: 7,
        ..Limits::default()
    });
    ok(&mut small, |o| o.mkdir(b"/only"));

    let mut copy = small.clone();
    copy.clone_from(&big);
    assert_eq!(copy, big);
    assert_eq!(copy.dump(), big.dump());
    assert_eq!(ok(&mut copy, |o| o.read(h)), b"x");

    let mut copy = big.clone();
    copy.clone_from(&small);
    assert_eq!(copy, small);
    assert_eq!(copy.dump(), small.dump());
    assert_eq!(copy.create(b"/a", b""), Ok(3));
}
