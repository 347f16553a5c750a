# SEMANTICS §4 mount points: a directory is a mount point while a live header with an empty
# table ends at it; every creation in it is EROFS (mkdir, create, symlink, listing, register
# rows, implicit directories of register).
register "proc/bus" []
=> ok header 1
mkdir "/proc/bus/x"
=> err EROFS
create "/proc/bus/x" "1"
=> err EROFS
symlink "/proc/bus/x" "t"
=> err EROFS
listing "/proc/bus/x"
=> err EROFS
register "proc/bus" [f "a" "1"]
=> err EROFS
register "proc/bus" [d "a"]
=> err EROFS
register "proc/bus/pci" []
=> err EROFS
register "proc/bus/pci/devices" [f "a" "1"]
=> err EROFS
# the parent is not a mount point
mkdir "/proc/other"
=> ok 4
# a second empty table at the same empty mount point is fine
register "proc/bus" []
=> ok header 2
# an empty table at a non-empty directory is EINVAL
register "proc" []
=> err EINVAL
stat "/proc/bus"
=> ok stat ino=3 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
remove "/proc/bus"
=> err EBUSY
remove_subtree "/proc"
=> err EBUSY
# still a mount point while header 2 lives
unregister 1
=> ok
mkdir "/proc/bus/x"
=> err EROFS
unregister 2
=> ok
stat "/proc/bus"
=> err ENOENT
stat "/proc"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
mkdir "/proc/bus"
=> ok 5
mkdir "/proc/bus/x"
=> ok 6
# an explicit empty directory can become a mount point too
mkdir "/m"
=> ok 7
register "m" []
=> ok header 3
create "/m/x" ""
=> err EROFS
stat "/m"
=> ok stat ino=7 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /proc dir ino=2 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /proc/other dir ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /proc/bus dir ino=5 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /proc/bus/x dir ino=6 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /m dir ino=7 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=1 perm=0 open=0
| header 3 dir=/m rows=0
| ns 0 uid=0 gid=0
| next ino=8 header=4 handle=1 ns=1
| stats live=6 allocated=6 headers=1 handles=0
unregister 3
=> ok
create "/m/x" ""
=> ok 8
