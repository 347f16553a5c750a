# SEMANTICS §6/§7: a permanent entry can never be removed, so neither can its ancestors by
# remove_subtree; the blocked call removes nothing at all.
mkdir "/a"
=> ok 2
mkdir "/a/b"
=> ok 3
mkdir "/a/b/c"
=> ok 4
create "/a/b/c/keep" "k"
=> ok 5
create "/a/x" ""
=> ok 6
create "/a/b/y" ""
=> ok 7
mark_permanent "/a/b/c/keep"
=> ok
remove_subtree "/a"
=> err EBUSY
remove_subtree "/a/b"
=> err EBUSY
remove_subtree "/a/b/c/keep"
=> err EBUSY
remove "/a/b/c/keep"
=> err EBUSY
# nothing was removed, not even the siblings visited before the permanent entry
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/b dir ino=3 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/b/c dir ino=4 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/b/c/keep file ino=5 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| entry /a/b/y file ino=7 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /a/x file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=8 header=1 handle=1 ns=1
| stats live=7 allocated=7 headers=0 handles=0
# the parts without permanent entries can go
remove_subtree "/a/x"
=> ok removed 1
remove_subtree "/a/b/y"
=> ok removed 1
mark_permanent "/a"
=> ok
remove "/a"
=> err EBUSY
remove_subtree "/a/b/c"
=> err EBUSY
stats
=> ok stats live=5 allocated=5 headers=0 handles=0
