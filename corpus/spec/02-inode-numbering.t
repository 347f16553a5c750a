# SEMANTICS §1: one tree-wide inode counter; every successful creation takes the next number,
# numbers are never reused, a failed operation takes none.
mkdir "/a"
=> ok 2
create "/a/f" "x"
=> ok 3
symlink "/a/l" "f"
=> ok 4
listing "/a/g"
=> ok 5
# failures take no number
mkdir "/a"
=> err EEXIST
create "/nope/f" ""
=> err ENOENT
symlink "/a/s" ""
=> err EINVAL
mkdir "/b"
=> ok 6
# a removed entry's number is not reused, even under the same name
remove "/a/f"
=> ok
create "/a/f" "y"
=> ok 7
remove "/b"
=> ok
mkdir "/b"
=> ok 8
stat "/a/f"
=> ok stat ino=7 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
# children in ascending inode order: l(4) g(5) f(7); the listing renders 3 lines of 4 bytes
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=2 size=3 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/l symlink ino=4 nlink=1 size=1 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /a/g listing ino=5 nlink=1 size=12 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /a/f file ino=7 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /b dir ino=8 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=9 header=1 handle=1 ns=1
| stats live=6 allocated=6 headers=0 handles=0
