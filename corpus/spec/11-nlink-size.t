# SEMANTICS §1: nlink = 2 + child directories for a dir, 1 otherwise; size = content length,
# target length, rendering length, or number of children.
mkdir "/d"
=> ok 2
mkdir "/d/e"
=> ok 3
mkdir "/d/e2"
=> ok 4
create "/d/f" "hello"
=> ok 5
symlink "/d/s" "target"
=> ok 6
listing "/d/g"
=> ok 7
stat "/"
=> ok stat ino=1 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
stat "/d"
=> ok stat ino=2 kind=dir nlink=4 size=5 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/d/e"
=> ok stat ino=3 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/d/f"
=> ok stat ino=5 kind=file nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/d/s"
=> ok stat ino=6 kind=symlink nlink=1 size=6 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
# "d\te\n" "d\te2\n" "f\tf\n" "l\ts\n" "g\tg\n" = 4+5+4+4+4
stat "/d/g"
=> ok stat ino=7 kind=listing nlink=1 size=21 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
remove "/d/e"
=> ok
stat "/d"
=> ok stat ino=2 kind=dir nlink=3 size=4 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/d/g"
=> ok stat ino=7 kind=listing nlink=1 size=17 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
lookup_at 2 "f"
=> ok stat ino=5 kind=file nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
lookup_at 1 "d"
=> ok stat ino=2 kind=dir nlink=3 size=4 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
# files under a dir do not change nlink; dirs do
mkdir "/d/e2/x"
=> ok 8
stat "/d/e2"
=> ok stat ino=4 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/d"
=> ok stat ino=2 kind=dir nlink=3 size=4 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
