# SEMANTICS §7 mark_permanent: path errors; only explicit entries (else EINVAL); marking
# twice or marking the root is fine; a permanent entry can never be removed.
mark_permanent "/"
=> ok
mark_permanent "/nope"
=> err ENOENT
mark_permanent "/a//"
=> err EINVAL
mkdir "/a"
=> ok 2
mark_permanent "/a"
=> ok
mark_permanent "/a"
=> ok
stat "/a"
=> ok stat ino=2 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
register "r" [f "x" "1", d "y"]
=> ok header 1
mark_permanent "/r"
=> err EINVAL
mark_permanent "/r/x"
=> err EINVAL
mark_permanent "/r/y"
=> err EINVAL
# explicit entries of every kind
create "/a/f" ""
=> ok 6
symlink "/a/s" "t"
=> ok 7
listing "/a/g"
=> ok 8
mark_permanent "/a/f"
=> ok
mark_permanent "/a/s"
=> ok
mark_permanent "/a/g"
=> ok
remove "/a/f"
=> err EBUSY
remove_subtree "/a/s"
=> err EBUSY
remove_subtree "/a"
=> err EBUSY
# a directory that became explicit when its header went away can be marked
register "s/t" [f "z" "1"]
=> ok header 2
create "/s/own" ""
=> ok 12
unregister 2
=> ok
mark_permanent "/s"
=> ok
stat "/s"
=> ok stat ino=9 kind=dir nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
dump
=> dump
| entry / dir ino=1 nlink=5 size=3 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=2 size=3 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a/f file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| entry /a/s symlink ino=7 nlink=1 size=1 mode=0777 uid=0 gid=0 owner=explicit perm=1 open=0
| entry /a/g listing ino=8 nlink=1 size=12 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| entry /r dir ino=3 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /r/x file ino=4 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r/y dir ino=5 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /s dir ino=9 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /s/own file ino=12 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| header 1 dir=/r rows=2
| row 1 x file
| row 1 y dir
| ns 0 uid=0 gid=0
| next ino=13 header=3 handle=1 ns=1
| stats live=10 allocated=10 headers=1 handles=0
