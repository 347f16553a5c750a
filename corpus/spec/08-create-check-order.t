# SEMANTICS §4 create: checks in order 1 syntax, 2 content (EFBIG), 3 root (EEXIST),
# 4 parent (ENOENT/ENOTDIR), 5 mount point (EROFS), 6 name taken (EEXIST), 7 ENOSPC.
# Each case makes the earlier checks pass; the "pair" cases fail two checks at once.
limits max_entries=6 max_content=4
mkdir "/d"
=> ok 2
create "/f" ""
=> ok 3
register "m" []
=> ok header 1
# 1 syntax (pair: content also too long -> syntax wins)
create "/d//x" "12345"
=> err EINVAL
create "/d/." ""
=> err EINVAL
# 2 content too long (pair: the root -> EFBIG wins)
create "/d/x" "12345"
=> err EFBIG
create "/" "12345"
=> err EFBIG
# 2 content exactly at the limit is fine (checked below by succeeding)
# 3 the root (pair: parent check cannot apply; EEXIST)
create "/" "1234"
=> err EEXIST
create "" ""
=> err EEXIST
# 4 parent
create "/nope/x" ""
=> err ENOENT
create "/f/x" ""
=> err ENOTDIR
# 5 mount point (pair: content too long -> EFBIG wins)
create "/m/x" ""
=> err EROFS
create "/m/x" "12345"
=> err EFBIG
# 6 name taken
create "/d" ""
=> err EEXIST
create "/f" "1234"
=> err EEXIST
# fill to the limit (6 allocated: root d f m a b)
create "/d/a" "1234"
=> ok 5
create "/d/b" ""
=> ok 6
# 7 entry limit
create "/d/c" ""
=> err ENOSPC
# pairs with a full tree: each earlier check wins over ENOSPC
create "/d/a" ""
=> err EEXIST
create "/m/x" ""
=> err EROFS
create "/nope/x" ""
=> err ENOENT
create "/d/c" "12345"
=> err EFBIG
dump
=> dump
| entry / dir ino=1 nlink=4 size=3 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /d dir ino=2 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/a file ino=5 nlink=1 size=4 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d/b file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /f file ino=3 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /m dir ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| header 1 dir=/m rows=0
| ns 0 uid=0 gid=0
| next ino=7 header=2 handle=1 ns=1
| stats live=6 allocated=6 headers=1 handles=0
