# SEMANTICS §6: a non-empty directory is never detached. The failed remove leaves every
# entry reachable and every counter unchanged (no leak: live = allocated).
mkdir "/a"
=> ok 2
mkdir "/a/b"
=> ok 3
create "/a/b/f" "x"
=> ok 4
stats
=> ok stats live=4 allocated=4 headers=0 handles=0
remove "/a"
=> err ENOTEMPTY
remove "/a/b"
=> err ENOTEMPTY
stats
=> ok stats live=4 allocated=4 headers=0 handles=0
stat "/a/b/f"
=> ok stat ino=4 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
check
=> ok
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/b dir ino=3 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/b/f file ino=4 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=5 header=1 handle=1 ns=1
| stats live=4 allocated=4 headers=0 handles=0
# with an open handle below: still nothing detached
open 0 "/a/b/f"
=> ok handle 1
remove "/a"
=> err ENOTEMPTY
stats
=> ok stats live=4 allocated=4 headers=0 handles=1
# emptied bottom-up it goes
remove "/a/b/f"
=> ok
stats
=> ok stats live=3 allocated=4 headers=0 handles=1
remove "/a/b"
=> ok
remove "/a"
=> ok
close 0
=> ok
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
