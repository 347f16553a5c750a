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
