# SEMANTICS §3: max_entries counts allocated entries, the root and removed-but-open entries
# included; a creation that would pass it is ENOSPC. Handles are not entries.
limits max_entries=4
mkdir "/a"
=> ok 2
create "/a/f" ""
=> ok 3
create "/b" "b"
=> ok 4
create "/c" ""
=> err ENOSPC
mkdir "/c"
=> err ENOSPC
symlink "/c" "t"
=> err ENOSPC
listing "/c"
=> err ENOSPC
register "x" []
=> err ENOSPC
register "a" [f "g" "1"]
=> err ENOSPC
# an empty table at a non-empty directory needs no entries: EINVAL, not ENOSPC
register "a" []
=> err EINVAL
# a removed entry held open still counts
open 0 "/b"
=> ok handle 1
remove "/b"
=> ok
stats
=> ok stats live=3 allocated=4 headers=0 handles=1
create "/c" ""
=> err ENOSPC
close 0
=> ok
create "/c" ""
=> ok 5
remove "/a/f"
=> ok
mkdir "/a/x"
=> ok 6
stats
=> ok stats live=4 allocated=4 headers=0 handles=0
dump
=> dump
| entry / dir ino=1 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/x dir ino=6 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /c file ino=5 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=7 header=1 handle=2 ns=1
| stats live=4 allocated=4 headers=0 handles=0
