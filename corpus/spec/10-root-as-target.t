# SEMANTICS §4: a creation naming the root is EEXIST; register may target the root (its
# rows go into the root; the root's hrefs stay 0); an empty table at the empty root makes
# the root a mount point.
mkdir "/"
=> err EEXIST
listing ""
=> err EEXIST
symlink "" "t"
=> err EEXIST
register "/" []
=> ok header 1
mkdir "/a"
=> err EROFS
create "x" ""
=> err EROFS
register "/" [f "x" "1"]
=> err EROFS
register "sub" []
=> err EROFS
stat "/"
=> ok stat ino=1 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
unregister 1
=> ok
register "/" [f "x" "1"]
=> ok header 2
stat "/x"
=> ok stat ino=2 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
# an empty table at the non-empty root
register "" []
=> err EINVAL
mkdir "/a"
=> ok 3
dump
=> dump
| entry / dir ino=1 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /x file ino=2 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /a dir ino=3 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| header 2 dir=/ rows=1
| row 2 x file
| ns 0 uid=0 gid=0
| next ino=4 header=3 handle=1 ns=1
| stats live=3 allocated=3 headers=1 handles=0
