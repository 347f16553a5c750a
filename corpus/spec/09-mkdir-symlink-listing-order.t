# SEMANTICS §4 for mkdir, symlink and listing: the same order as create. symlink's step 2
# is "target too long -> EFBIG; empty target -> EINVAL"; mkdir and listing have no step 2.
limits max_entries=5 max_content=3
mkdir "/a"
=> ok 2
create "/a/f" ""
=> ok 3
register "mnt" []
=> ok header 1
# symlink
symlink "/a//x" "1234"
=> err EINVAL
symlink "/x" "1234"
=> err EFBIG
symlink "/x" ""
=> err EINVAL
symlink "/" "1234"
=> err EFBIG
symlink "/" ""
=> err EINVAL
symlink "/" "t"
=> err EEXIST
symlink "/no/x" ""
=> err EINVAL
symlink "/no/x" "t"
=> err ENOENT
symlink "/a/f/x" "t"
=> err ENOTDIR
symlink "/mnt/x" "t"
=> err EROFS
symlink "/a/f" "t"
=> err EEXIST
# a target of exactly max_content bytes is fine; this fills the tree (5 allocated)
symlink "/a/l" "abc"
=> ok 5
symlink "/a/l2" "t"
=> err ENOSPC
symlink "/a/l" "t"
=> err EEXIST
# mkdir
mkdir "/a/f//"
=> err EINVAL
mkdir "/"
=> err EEXIST
mkdir ""
=> err EEXIST
mkdir "/q/z"
=> err ENOENT
mkdir "/a/f/x"
=> err ENOTDIR
mkdir "/mnt/x"
=> err EROFS
mkdir "/a/f"
=> err EEXIST
mkdir "/a/z"
=> err ENOSPC
# listing
listing "/a/."
=> err EINVAL
listing "/"
=> err EEXIST
listing "/q/g"
=> err ENOENT
listing "/a/l/g"
=> err ENOTDIR
listing "/mnt/g"
=> err EROFS
listing "/a/l"
=> err EEXIST
listing "/a/g"
=> err ENOSPC
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/f file ino=3 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /a/l symlink ino=5 nlink=1 size=3 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /mnt dir ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| header 1 dir=/mnt rows=0
| ns 0 uid=0 gid=0
| next ino=6 header=2 handle=1 ns=1
| stats live=5 allocated=5 headers=1 handles=0
