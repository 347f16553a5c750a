# SEMANTICS §5 lookup_at: bad name (EINVAL/ENAMETOOLONG), then dir not live (ENOENT; removed
# entries still held open are not live), then not a directory (ENOTDIR), then no such child.
mkdir "/d"
=> ok 2
create "/d/f" ""
=> ok 3
create "/g" "abc"
=> ok 4
lookup_at 2 ""
=> err EINVAL
# name before the directory check
lookup_at 999 ""
=> err EINVAL
lookup_at 999 "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
=> err ENAMETOOLONG
lookup_at 999 "a/b"
=> err EINVAL
lookup_at 4 "."
=> err EINVAL
# directory not live
lookup_at 999 "x"
=> err ENOENT
lookup_at 0 "x"
=> err ENOENT
# not a directory
lookup_at 4 "x"
=> err ENOTDIR
# no such child
lookup_at 2 "nope"
=> err ENOENT
lookup_at 2 "f"
=> ok stat ino=3 kind=file nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
# a removed entry held open is not live: ENOENT, not ENOTDIR
open 0 "/g"
=> ok handle 1
remove "/g"
=> ok
lookup_at 4 "x"
=> err ENOENT
readdir 4 0 1
=> err ENOENT
lookup_at 1 "g"
=> err ENOENT
stats
=> ok stats live=3 allocated=4 headers=0 handles=1
close 0
=> ok
remove_subtree "/d"
=> ok removed 2
lookup_at 2 "f"
=> err ENOENT
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
