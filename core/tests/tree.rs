//! Core-specific behaviour: scale, deep chains, caches, slot reuse. SPEC conformance as a
//! whole is pinned by the transcripts in corpus/spec (run by the harness's tests).

use pdtree::{read_all, Errno, Kind, Limits, Owner, PseudoFs, Row, Tree, ROOT_INO};

fn ok(t: &Tree) {
    if let Err(v) = t.check_invariants() {
        panic!("{v}\n{}", t.dump());
    }
}

#[test]
fn deep_chain_is_iterative() {
    let mut t = Tree::new();
    let mut path = Vec::new();
    for _ in 0..2000 {
        path.extend_from_slice(b"/d");
        if path.len() > 4096 {
            break;
        }
        t.mkdir(&path).unwrap();
    }
    ok(&t);
    let n = t.stats().live - 1;
    assert_eq!(n, 2000);
    // Entries, then the `ns`, `next` and `stats` lines.
    assert_eq!(t.dump().lines().count() as u64, n + 1 + 3);
    assert_eq!(t.remove_subtree(b"/d"), Ok(n));
    assert_eq!(t.stats().live, 1);
    ok(&t);
}

#[test]
fn deep_chain_drop_does_not_recurse() {
    // 2,001 levels: close to the 4096-byte path limit.
    let mut t = Tree::new();
    let mut path = b"/a".to_vec();
    t.mkdir(&path).unwrap();
    for _ in 0..2000 {
        path.extend_from_slice(b"/a");
        t.mkdir(&path).unwrap();
    }
    assert_eq!(t.remove_subtree(b"/a"), Ok(2001));
    ok(&t);
    drop(t); // dropping a deep arena must not recurse
}

#[test]
fn many_children_readdir_resume_and_removal() {
    let mut t = Tree::new();
    t.mkdir(b"/net").unwrap();
    for i in 0..5000 {
        t.create(format!("/net/eth{i}").as_bytes(), b"").unwrap();
    }
    let net = t.stat(b"/net").unwrap().ino;
    let page = t.readdir(net, 0, 100).unwrap();
    assert_eq!(page.entries.len(), 100);
    // Remove the entry just before and just after the cursor; the scan must not skip.
    let last = &page.entries[99];
    t.remove(format!("/net/{}", String::from_utf8_lossy(&last.name)).as_bytes())
        .unwrap();
    t.remove(b"/net/eth100").unwrap();
    let rest = t.readdir(net, page.next_pos, 4096).unwrap();
    assert_eq!(rest.entries[0].name, b"eth101");
    for i in (0..5000).step_by(2) {
        let _ = t.remove(format!("/net/eth{i}").as_bytes());
    }
    ok(&t);
    let all = read_all(&t, net, 7).unwrap();
    assert!(all.windows(2).all(|w| w[0].ino < w[1].ino));
    assert_eq!(all.len() as u64, t.stat(b"/net").unwrap().size);
}

#[test]
fn listing_cache_follows_the_child_set() {
    let mut t = Tree::new();
    t.mkdir(b"/d").unwrap();
    t.listing(b"/d/ls").unwrap();
    let h = t.open(b"/d/ls").unwrap();
    assert_eq!(t.read(h).unwrap(), b"g\tls\n");
    t.create(b"/d/f", b"x").unwrap();
    assert_eq!(t.read(h).unwrap(), b"g\tls\nf\tf\n");
    assert_eq!(t.read(h).unwrap(), b"g\tls\nf\tf\n");
    // Read again with no change, the listing is the cached rendering, not a new one.
    let first = t.read_shared(h).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &t.read_shared(h).unwrap()));
    ok(&t);
    t.remove(b"/d/f").unwrap();
    assert_eq!(t.read(h).unwrap(), b"g\tls\n");
    assert_eq!(t.stat(b"/d/ls").unwrap().size, 5);
    ok(&t);
}

#[test]
fn removed_open_entries_survive_slot_reuse() {
    let mut t = Tree::new();
    t.mkdir(b"/d").unwrap();
    t.create(b"/d/f", b"data").unwrap();
    let h = t.open(b"/d/f").unwrap();
    assert_eq!(t.remove_subtree(b"/d"), Ok(2));
    assert_eq!(t.stats().allocated, 2);
    // Reuse the freed directory slot.
    t.mkdir(b"/e").unwrap();
    t.create(b"/e/g", b"").unwrap();
    ok(&t);
    assert_eq!(t.read(h), Err(Errno::ENOENT));
    t.close(h).unwrap();
    assert_eq!(t.stats().allocated, t.stats().live);
    assert_eq!(t.close(h), Err(Errno::EBADF));
    ok(&t);
}

#[test]
fn sysctl_tables_and_mount_points() {
    let mut t = Tree::new();
    let rows = |n: usize| -> Vec<Row> { (0..n).map(|i| Row::file(format!("r{i}"), "0")).collect() };
    let mut hs = Vec::new();
    for dev in 0..50 {
        hs.push(
            t.register(format!("net/ipv4/conf/dev{dev}").as_bytes(), &rows(20))
                .unwrap(),
        );
    }
    ok(&t);
    let conf = t.stat(b"net/ipv4/conf").unwrap();
    assert_eq!((conf.nlink, conf.owner), (52, Owner::Implicit));
    let mnt = t.register(b"fs/binfmt_misc", &[]).unwrap();
    assert_eq!(t.create(b"fs/binfmt_misc/x", b""), Err(Errno::EROFS));
    assert_eq!(
        t.register(b"fs/binfmt_misc/sub", &rows(1)),
        Err(Errno::EROFS)
    );
    for h in hs {
        t.unregister(h).unwrap();
    }
    ok(&t);
    assert_eq!(t.stat(b"net"), Err(Errno::ENOENT));
    t.unregister(mnt).unwrap();
    assert_eq!(read_all(&t, ROOT_INO, 10).unwrap().len(), 0);
    ok(&t);
}

#[test]
fn implicit_dir_with_explicit_content_becomes_explicit() {
    let mut t = Tree::new();
    let h = t.register(b"a/b", &[Row::dir("r")]).unwrap();
    t.create(b"a/mine", b"").unwrap();
    assert_eq!(t.unregister(h), Ok(()));
    assert_eq!(t.stat(b"a").unwrap().owner, Owner::Explicit);
    assert_eq!(t.stat(b"a/b"), Err(Errno::ENOENT));
    assert_eq!(t.stat(b"a/mine").unwrap().kind, Kind::File);
    ok(&t);
}

#[test]
fn limits_are_enforced() {
    let mut t = Tree::with_limits(Limits {
        max_entries: 3,
        max_content: 2,
        max_table_rows: 1,
        max_readdir: 2,
        max_namespaces: 65_536,
    });
    assert_eq!(t.create(b"f", b"abc"), Err(Errno::EFBIG));
    assert_eq!(
        t.register(b"x", &[Row::dir("a"), Row::dir("b")]),
        Err(Errno::E2BIG)
    );
    t.mkdir(b"a").unwrap();
    t.mkdir(b"b").unwrap();
    assert_eq!(t.mkdir(b"c"), Err(Errno::ENOSPC));
    assert_eq!(t.readdir(ROOT_INO, 0, 3), Err(Errno::EINVAL));
    assert_eq!(t.stat(b"b").unwrap().ino, 3);
    ok(&t);
}

#[test]
fn marking_permanent_stops_reference_tracking() {
    let mut t = Tree::new();
    t.create(b"f", b"x").unwrap();
    let h1 = t.open(b"f").unwrap();
    assert_eq!(t.stat(b"f").unwrap().open_refs, 1);
    t.mark_permanent(b"f").unwrap();
    assert_eq!(t.stat(b"f").unwrap().open_refs, 0);
    let h2 = t.open(b"f").unwrap();
    assert_eq!(t.stat(b"f").unwrap().open_refs, 0);
    t.close(h1).unwrap();
    t.close(h2).unwrap();
    assert_eq!(t.stat(b"f").unwrap().open_refs, 0);
    assert_eq!(t.remove(b"f"), Err(Errno::EBUSY));
    ok(&t);
}

#[test]
fn name_index_survives_growth_after_removal_and_churn() {
    // The name index grows by rebuilding itself from an arena scan (hashbrown's own rehash
    // when most slots are free, as in a fresh tree). The scan must skip free slots and
    // removed-but-open entries, and lose no name: growths happen here before and after mass
    // removal, tombstone churn and slot reuse.
    let mut t = Tree::new();
    t.mkdir(b"/d").unwrap();
    let path = |i: u32| format!("/d/f{i}").into_bytes();
    for i in 0..3000 {
        t.create(&path(i), b"").unwrap();
    }
    let held = t.open(&path(7)).unwrap();
    for i in 0..2990 {
        t.remove(&path(i)).unwrap();
    }
    ok(&t);
    // Churn: tombstones use up the table's room while it holds a dozen entries.
    for i in 0..20_000 {
        t.create(b"/d/churn", b"").unwrap();
        t.remove(b"/d/churn").unwrap();
        if i % 4999 == 0 {
            ok(&t);
        }
    }
    for i in 3000..9000 {
        t.create(&path(i), b"").unwrap();
        if i % 997 == 0 {
            ok(&t);
        }
    }
    ok(&t);
    assert_eq!(t.stat(&path(7)), Err(Errno::ENOENT));
    for i in (2990..9000).step_by(7) {
        assert!(
            t.stat(&path(i)).is_ok(),
            "f{i} lost by a growth of the name index"
        );
    }
    assert_eq!(t.create(&path(8999), b""), Err(Errno::EEXIST));
    t.close(held).unwrap();
    assert_eq!(t.stats().live, 2 + 6010);
}

#[test]
fn rows_held_open_through_ns_destroy_keep_their_owner() {
    // One with a mode of its own, one whose mode and owner came from the namespace, which
    // is gone afterwards.
    let mut t = Tree::new();
    let k = t.ns_create(5, 6).unwrap();
    let rows = [
        Row::file("dev", "x").with_mode(0o600),
        Row::file("plain", "y"),
    ];
    t.register_ns(k, b"net", &rows).unwrap();
    let held = [b"/net/dev".as_slice(), b"/net/plain"].map(|p| t.open_in(k, p).unwrap());
    let was = held.map(|h| t.stat_handle(h).unwrap());
    assert_eq!(was[0].mode, 0o600);
    assert_eq!(t.ns_destroy(k), Ok(3));
    for (h, was) in held.into_iter().zip(was) {
        let st = t.stat_handle(h).unwrap();
        assert_eq!(
            (st.nlink, st.mode, st.uid, st.gid, st.ns),
            (0, was.mode, 5, 6, Some(k))
        );
    }
    ok(&t);
    for h in held {
        t.close(h).unwrap();
    }
    ok(&t);
}

#[test]
fn inode_addressed_reads_serve_view_0() {
    let mut t = Tree::new();
    let k = t.ns_create(0, 0).unwrap();
    t.register_ns(k, b"net", &[pdtree::Row::file("dev", "x")])
        .unwrap();
    let ino = t.stat_in(k, b"/net/dev").unwrap().ino;
    assert_eq!(t.stat_ino(ino), Err(Errno::ENOENT));
    assert_eq!(t.path_of(ino), Err(Errno::ENOENT));
    t.create(b"/shared", b"").unwrap();
    let shared = t.stat(b"/shared").unwrap().ino;
    assert_eq!(t.path_of(shared).unwrap(), b"/shared");
}

#[test]
fn names_and_paths_that_resolve_are_still_checked_first_when_they_fail() {
    // `lookup_at` and path resolution check syntax only on the way to an error (a name
    // that is found was checked when it was made); the order of errors must not change.
    let mut t = Tree::new();
    let d = t.mkdir(b"/d").unwrap();
    t.create(b"/d/f", b"x").unwrap();
    let long = vec![b'n'; 256];
    assert_eq!(t.lookup_at(d, b"f").unwrap().size, 1);
    assert_eq!(t.lookup_at(ROOT_INO, b"d/f"), Err(Errno::EINVAL));
    assert_eq!(t.lookup_at(999, b""), Err(Errno::EINVAL));
    assert_eq!(t.lookup_at(999, &long), Err(Errno::ENAMETOOLONG));
    assert_eq!(t.lookup_at(999, b"f"), Err(Errno::ENOENT));
    assert_eq!(t.lookup_at_in(5, d, b"."), Err(Errno::EINVAL));
    assert_eq!(
        t.lookup_at_in(5, d, b"f"),
        Err(Errno::ENOENT),
        "a dead view"
    );
    assert_eq!(t.stat(b"d/f"), t.stat(b"/d/f"));
    assert_eq!(t.stat(b"/").unwrap().ino, ROOT_INO);
    assert_eq!(t.stat(b"").unwrap().ino, ROOT_INO);
    for bad in [
        &b"/d//f"[..],
        b"/d/f/",
        b"//d",
        b"/d/./f",
        b"/missing/..",
        b"/d/f\0",
    ] {
        assert_eq!(t.stat(bad), Err(Errno::EINVAL), "{bad:?}");
    }
    let mut too_long = b"/d/f".to_vec();
    too_long.extend(std::iter::repeat_n(b'/', 4096));
    assert_eq!(t.stat(&too_long), Err(Errno::ENAMETOOLONG));
    assert_eq!(
        t.stat(&[b"/missing/".as_slice(), &long].concat()),
        Err(Errno::ENAMETOOLONG)
    );
    assert_eq!(t.stat_in(5, b"/d/f"), Err(Errno::ENOENT), "a dead view");
    assert_eq!(t.stat(b"/d/f/g"), Err(Errno::ENOTDIR));
}

#[test]
fn an_entry_past_the_path_limit_is_found_by_inode_but_not_by_path() {
    // `register` checks its directory as a path and each row as a name, so a row's whole
    // path may pass 4096 bytes. Like PATH_MAX, the limit is on the path asked, not on what
    // exists: that path is ENAMETOOLONG even though a walk would find the entry.
    let mut t = Tree::new();
    let names: Vec<String> = (0..17).map(|i| format!("{i:0>239}")).collect();
    let dir = names.join("/"); // 17 × 240 − 1 = 4079 bytes
    let row = "r".repeat(255);
    t.register(dir.as_bytes(), &[Row::file(row.as_str(), "x")])
        .unwrap();
    let parent = t.stat(dir.as_bytes()).unwrap().ino;
    let ino = t.lookup_at(parent, row.as_bytes()).unwrap().ino;
    let path = format!("/{dir}/{row}");
    assert_eq!(path.len(), 4336);
    assert_eq!(t.stat(path.as_bytes()), Err(Errno::ENAMETOOLONG));
    assert_eq!(t.open(path.as_bytes()), Err(Errno::ENAMETOOLONG));
    // Exactly 4096 bytes resolves, with or without the leading `/`.
    let row = "s".repeat(16);
    t.register(dir.as_bytes(), &[Row::file(row.as_str(), "y")])
        .unwrap();
    let at_limit = format!("{dir}/{row}");
    assert_eq!(at_limit.len(), 4096);
    let s = t.stat(at_limit.as_bytes()).unwrap();
    assert_ne!(s.ino, ino);
    assert_eq!(
        t.stat(format!("/{at_limit}").as_bytes()),
        Err(Errno::ENAMETOOLONG)
    );
    // `path_of` answers with the leading `/`: 4096 bytes at most, as a path op takes.
    assert_eq!(t.path_of(s.ino), Err(Errno::ENAMETOOLONG));
    assert_eq!(t.path_of(ino), Err(Errno::ENAMETOOLONG));
    let row = "t".repeat(15);
    t.register(dir.as_bytes(), &[Row::file(row.as_str(), "z")])
        .unwrap();
    let fits = t.lookup_at(parent, row.as_bytes()).unwrap().ino;
    let path = t.path_of(fits).unwrap();
    assert_eq!(path.len(), 4096);
    assert_eq!(t.stat(&path).unwrap().ino, fits);
}

/// `stat_in(view, path)` by `lookup_at_in`, one component at a time.
fn stat_by_lookups(t: &Tree, view: u64, path: &[u8]) -> Result<pdtree::Stat, Errno> {
    let mut st = t.stat_in(view, b"/")?;
    for name in path.split(|&b| b == b'/').filter(|c| !c.is_empty()) {
        st = t.lookup_at_in(view, st.ino, name)?;
    }
    Ok(st)
}

#[test]
fn paths_through_shared_and_tagged_directories_resolve_as_lookups_do() {
    // A path resolves through shared and tagged steps in one walk; `lookup_at_in` probes
    // one step at a time. A tagged step anywhere on the path must answer per view in both.
    let mut t = Tree::new();
    let k = t.ns_create(0, 0).unwrap();
    t.register(b"net/core", &[Row::file("somaxconn", "4096\n")])
        .unwrap();
    t.register_ns(k, b"net", &[Row::file("dev", "x"), Row::dir("conf")])
        .unwrap();
    t.register_ns(k, b"net/conf", &[Row::file("all", "1")])
        .unwrap();
    t.register_ns(k, b"net/conf/lo", &[Row::file("mtu", "65536")])
        .unwrap();
    // A second namespace's directories at the same paths as k's: the same path names a
    // different directory in each view.
    let k2 = t.ns_create(0, 0).unwrap();
    t.register_ns(k2, b"net", &[Row::dir("conf")]).unwrap();
    t.register_ns(k2, b"net/conf/lo", &[Row::file("mtu", "1500")])
        .unwrap();
    t.mkdir(b"/a").unwrap();
    t.mkdir(b"/a/b").unwrap();
    t.create(b"/a/b/f", b"deep").unwrap();
    ok(&t);
    let paths: [&[u8]; 12] = [
        b"/a/b/f/x",
        b"/net/conf/lo/mtu/x",
        b"/net/core/somaxconn",
        b"/net/dev",
        b"/net/conf",
        b"/net/conf/all",
        b"/net/conf/lo/mtu",
        b"/net/conf/lo",
        b"/a/b/f",
        b"a/b/f",
        b"/a/b",
        b"/net/missing",
    ];
    let check = |t: &Tree| {
        for view in [0, k, k2] {
            for p in paths {
                let by_path = t.stat_in(view, p);
                assert_eq!(by_path, stat_by_lookups(t, view, p), "view {view} {p:?}");
            }
        }
    };
    check(&t);
    assert_eq!(t.stat_in(k, b"/net/conf/lo/mtu").unwrap().size, 5);
    assert_eq!(t.stat_in(k2, b"/net/conf/lo/mtu").unwrap().size, 4);
    assert_eq!(t.stat_in(k2, b"/net/conf/all"), Err(Errno::ENOENT));
    assert_eq!(t.stat(b"/a/b/f/x"), Err(Errno::ENOTDIR));
    assert_eq!(t.stat(b"/net/conf/all"), Err(Errno::ENOENT));
    assert_eq!(t.remove_subtree(b"/a/b"), Ok(2));
    assert_eq!(t.stat(b"/a/b/f"), Err(Errno::ENOENT));
    t.mkdir(b"/a/b").unwrap();
    t.create(b"/a/b/f", b"again").unwrap();
    assert_eq!(t.stat(b"/a/b/f").unwrap().size, 5);
    t.ns_destroy(k).unwrap();
    ok(&t);
    check(&t);
    assert_eq!(t.stat_in(k2, b"/net/conf/lo/mtu").unwrap().size, 4);
}
