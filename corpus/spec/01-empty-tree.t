# SEMANTICS §1: a new tree holds only the root: inode 1, empty name, dir, explicit, permanent.
stat "/"
=> ok stat ino=1 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
# §2: the empty path also names the root.
stat ""
=> ok stat ino=1 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
# §5: an empty directory returns nothing; next_pos is pos unchanged.
readdir 1 0 10
=> ok page next=0 []
readdir 1 12345 1
=> ok page next=12345 []
lookup_at 1 "a"
=> err ENOENT
# §6: the root can never be removed.
remove "/"
=> err EBUSY
remove_subtree ""
=> err EBUSY
# §7: marking the root is fine; opening it is EISDIR.
mark_permanent "/"
=> ok
open 0 "/"
=> err EISDIR
check
=> ok
# §9: the canonical dump of the empty tree; the failures above took no number.
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
