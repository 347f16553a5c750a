//! Pins the small public vocabulary of core (errno and kind names, owner and violation
//! rendering, `Row` constructors, `read_all`) so that mutation testing (docs/MUTANTS.md)
//! catches a changed name or a dropped match arm. The doctests say the same for a few values,
//! but the mutation test command runs no doctests (they cost a link per example).

use pdtree::{
    read_all, Errno, InvariantViolation, Kind, Owner, PseudoFs, Row, RowKind, Tree, ROOT_INO,
};

#[test]
fn errno_names_display_and_parse_back() {
    let names = [
        "ENOENT",
        "ENOTDIR",
        "EISDIR",
        "EEXIST",
        "ENOTEMPTY",
        "EBUSY",
        "EINVAL",
        "ENAMETOOLONG",
        "EBADF",
        "ENOSPC",
        "EFBIG",
        "E2BIG",
        "EROFS",
    ];
    assert_eq!(Errno::ALL.len(), names.len());
    for (e, name) in Errno::ALL.into_iter().zip(names) {
        assert_eq!(e.name(), name);
        assert_eq!(e.to_string(), name);
        assert_eq!(name.parse::<Errno>(), Ok(e));
    }
    assert_eq!("".parse::<Errno>(), Err(()));
    assert_eq!("xyzzy".parse::<Errno>(), Err(()));
    assert_eq!("enoent".parse::<Errno>(), Err(()));
}

#[test]
fn kind_letters_and_words() {
    let all = [
        (Kind::Dir, 'd', "dir"),
        (Kind::File, 'f', "file"),
        (Kind::Symlink, 'l', "symlink"),
        (Kind::Listing, 'g', "listing"),
    ];
    for (k, letter, word) in all {
        assert_eq!(k.letter(), letter);
        assert_eq!(k.word(), word);
    }
}

#[test]
fn owners_display() {
    assert_eq!(Owner::Explicit.to_string(), "explicit");
    assert_eq!(Owner::Implicit.to_string(), "implicit");
    assert_eq!(Owner::Header(3).to_string(), "header:3");
}

#[test]
fn invariant_names_and_display() {
    let names = [
        "ordering",
        "nlink",
        "no leak",
        "index agreement",
        "header refcounts",
        "permanent reachable",
        "listing cache",
        "atomicity",
        "namespace tags",
        "namespace entries",
        "source cache",
        "handle snapshot",
        "modes and owners",
    ];
    for (n, name) in (1..=13).zip(names) {
        assert_eq!(InvariantViolation::name_of(n), name);
    }
    assert_eq!(InvariantViolation::name_of(0), "unknown");
    assert_eq!(InvariantViolation::name_of(14), "unknown");
    let v = InvariantViolation {
        invariant: 2,
        detail: "/a: nlink 3, counted 2".into(),
    };
    assert_eq!(
        v.to_string(),
        "invariant 2 (nlink) broken: /a: nlink 3, counted 2"
    );
}

#[test]
fn row_constructors() {
    let f = Row::file("eth0", "up");
    assert_eq!(f.name, b"eth0");
    assert_eq!(f.kind, RowKind::File(b"up".to_vec()));
    let d = Row::dir("conf");
    assert_eq!(d.name, b"conf");
    assert_eq!(d.kind, RowKind::Dir);
}

#[test]
fn read_all_pages_through_a_directory() {
    let mut t = Tree::new();
    for n in 0..10 {
        t.mkdir(format!("/d{n}").as_bytes()).unwrap();
    }
    let all = read_all(&t, ROOT_INO, 3).unwrap();
    let names: Vec<String> = all
        .iter()
        .map(|e| String::from_utf8_lossy(&e.name).into_owned())
        .collect();
    let want: Vec<String> = (0..10).map(|n| format!("d{n}")).collect();
    assert_eq!(names, want);
    assert!(all.iter().all(|e| e.kind == Kind::Dir));
    assert_eq!(read_all(&t, ROOT_INO + 1000, 3), Err(Errno::ENOENT));
}

/// `readdir_each` (the allocation-free readdir) agrees with `readdir` page by page, and makes
/// the same checks.
#[test]
fn readdir_each_agrees_with_readdir() {
    let mut t = Tree::new();
    t.mkdir(b"/d").unwrap();
    for n in 0..40 {
        t.create(format!("/d/f{n}").as_bytes(), b"x").unwrap();
        if n % 3 == 0 {
            t.mkdir(format!("/d/s{n}").as_bytes()).unwrap();
        }
    }
    for n in (0..40).step_by(4) {
        t.remove(format!("/d/f{n}").as_bytes()).unwrap();
    }
    let d = t.stat(b"/d").unwrap().ino;
    let f = t.stat(b"/d/f1").unwrap().ino;
    for page in [1, 3, 7, 128] {
        let mut pos = 0;
        loop {
            let want = t.readdir(d, pos, page).unwrap();
            let mut got = Vec::new();
            let next = t
                .readdir_each(d, pos, page, |name, ino, kind| {
                    got.push(pdtree::DirEntry {
                        name: name.to_vec(),
                        ino,
                        kind,
                    })
                })
                .unwrap();
            assert_eq!(got, want.entries, "page {page} at {pos}");
            assert_eq!(next, want.next_pos, "page {page} at {pos}");
            if want.entries.is_empty() {
                assert_eq!(next, pos);
                break;
            }
            pos = next;
        }
    }
    let max = t.limits().max_readdir;
    for (dir, page, want) in [
        (d, 0, Errno::EINVAL),
        (d, max + 1, Errno::EINVAL),
        (ROOT_INO + 10_000, 1, Errno::ENOENT),
        (f, 1, Errno::ENOTDIR),
    ] {
        assert_eq!(t.readdir(dir, 0, page).map(|_| ()), Err(want));
        assert_eq!(
            t.readdir_each(dir, 0, page, |_, _, _| panic!("called on error")),
            Err(want)
        );
    }
    assert_eq!(t.readdir_each(d, 0, max, |_, _, _| {}).map(|_| ()), Ok(()));
}

#[test]
fn a_tree_reports_the_limits_it_was_made_with() {
    let l = pdtree::Limits {
        max_entries: 7,
        max_content: 11,
        max_table_rows: 3,
        max_readdir: 5,
        max_namespaces: 65_536,
    };
    assert_ne!(l, pdtree::Limits::default());
    let t = Tree::with_limits(l);
    assert_eq!(t.limits(), l);
    assert_eq!(Tree::new().limits(), pdtree::Limits::default());
}

/// A tree that implements only the trait's required methods, by handing each to a [`Tree`],
/// so every provided method runs its default body (a user's own tree gets those defaults).
/// `broken` makes `check_invariants` fail, to see what the default `check_invariants_near`
/// does with it.
struct OnlyRequired {
    tree: Tree,
    broken: bool,
}

mod only_required {
    use super::OnlyRequired;
    use pdtree::{
        Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Limits, Mode, NsId, PseudoFs,
        ReadDirPage, Row, Stat, Stats, Tree, View,
    };

    impl PseudoFs for OnlyRequired {
        fn with_limits(limits: Limits) -> Self {
            let tree = Tree::with_limits(limits);
            OnlyRequired {
                tree,
                broken: false,
            }
        }
        fn limits(&self) -> Limits {
            self.tree.limits()
        }
        fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
            self.tree.mkdir(path)
        }
        fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
            self.tree.create(path, content)
        }
        fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
            self.tree.symlink(path, target)
        }
        fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
            self.tree.listing(path)
        }
        fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
            self.tree.generated(path, source)
        }
        fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
            self.tree.source_add(source, item)
        }
        fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
            self.tree.source_remove(source, item)
        }
        fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
            self.tree.register(dir, table)
        }
        fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
            self.tree.register_ns(ns, dir, table)
        }
        fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
            self.tree.unregister(header)
        }
        fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
            self.tree.ns_create(uid, gid)
        }
        fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
            self.tree.ns_destroy(ns)
        }
        fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
            self.tree.stat_in(view, path)
        }
        fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
            self.tree.lookup_at_in(view, dir, name)
        }
        fn readdir_in(
            &self,
            view: View,
            dir: Ino,
            pos: u64,
            max: usize,
        ) -> Result<ReadDirPage, Errno> {
            self.tree.readdir_in(view, dir, pos, max)
        }
        fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
            self.tree.remove(path)
        }
        fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
            self.tree.remove_subtree(path)
        }
        fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
            self.tree.mark_permanent(path)
        }
        fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
            self.tree.open_in(view, path)
        }
        fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
            self.tree.read_at(handle, offset, len)
        }
        fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
            self.tree.write(handle, content)
        }
        fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
            self.tree.chmod_in(view, path, mode)
        }
        fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
            self.tree.chown_in(view, path, uid, gid)
        }
        fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
            self.tree.close(handle)
        }
        fn stats(&self) -> Stats {
            self.tree.stats()
        }
        fn check_invariants(&self) -> Result<(), InvariantViolation> {
            if self.broken {
                return Err(InvariantViolation {
                    invariant: 2,
                    detail: "planted".into(),
                });
            }
            self.tree.check_invariants()
        }
        fn dump(&self) -> String {
            self.tree.dump()
        }
    }
}

#[test]
fn the_provided_methods_work_on_a_tree_that_implements_only_the_required_ones() {
    let mut t = OnlyRequired::with_limits(pdtree::Limits::default());
    let d = t.mkdir(b"/d").unwrap();
    for name in [&b"a"[..], b"b", b"c"] {
        t.create(&[b"/d/", name].concat(), b"x").unwrap();
    }
    let names: Vec<Vec<u8>> = t
        .children_in(0, d)
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    assert_eq!(t.chmod(b"/d/a", 0o600), Ok(()));
    assert_eq!(t.stat(b"/d/a").unwrap().mode, 0o600);
    assert_eq!(t.chmod(b"/d/zz", 0o600), Err(Errno::ENOENT));
    assert_eq!(t.chown(b"/d/b", 7, 8), Ok(()));
    let b = t.stat(b"/d/b").unwrap();
    assert_eq!((b.uid, b.gid), (7, 8));
    assert_eq!(t.chown(b"/d/zz", 7, 8), Err(Errno::ENOENT));

    // The default fingerprint hashes the dump: equal dumps, equal fingerprints.
    let mut same = OnlyRequired::with_limits(pdtree::Limits::default());
    same.mkdir(b"/d").unwrap();
    for name in [&b"a"[..], b"b", b"c"] {
        same.create(&[b"/d/", name].concat(), b"x").unwrap();
    }
    same.chmod(b"/d/a", 0o600).unwrap();
    same.chown(b"/d/b", 7, 8).unwrap();
    assert_eq!(same.dump(), t.dump());
    assert_eq!(same.fingerprint(), t.fingerprint());
    same.create(b"/d/e", b"").unwrap();
    assert_ne!(same.fingerprint(), t.fingerprint());

    // The default check_invariants_near is the whole check.
    assert_eq!(t.check_invariants_near(&[d]), Ok(()));
    t.broken = true;
    assert_eq!(
        t.check_invariants_near(&[d]).map_err(|v| v.invariant),
        Err(2)
    );
}
