# SEMANTICS §4 register: checks in order 1 dir syntax, 2 E2BIG, 3 each row in table order
# (name, then content), 4 duplicate names, 5 ENOTDIR on the existing prefix, 6 EROFS,
# 7 a row name already present, 8 ENOSPC (implicit dirs + rows), 9 empty table at a
# non-empty directory. Failed calls take no header id and create nothing.
limits max_entries=12 max_content=4 max_table_rows=3
create "/file" ""
=> ok 2
mkdir "/d"
=> ok 3
create "/d/taken" ""
=> ok 4
register "mnt" []
=> ok header 1
# 1 syntax (pair: also too many rows)
register "a//b" [f "x" "1", f "y" "1", f "z" "1", f "w" "1"]
=> err EINVAL
# 2 too many rows (pair: a later row has a bad name)
register "a" [f "x" "1", f "y" "1", f "z" "1", f "" "1"]
=> err E2BIG
# 3 rows in table order: the first row's content before the second row's name
register "a" [f "ok" "12345", f "." "1"]
=> err EFBIG
# 3 within one row: the name before the content
register "a" [f "." "12345"]
=> err EINVAL
register "a" [f "x/y" "1"]
=> err EINVAL
register "a" [d "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"]
=> err ENAMETOOLONG
register "a" [f "x" "12345"]
=> err EFBIG
# 4 a duplicate name (pair: the path also goes through a file)
register "file/x" [f "x" "1", d "x"]
=> err EEXIST
# 5 an existing non-directory component, the last one included
register "file/x" [f "a" "1"]
=> err ENOTDIR
register "file" [f "a" "1"]
=> err ENOTDIR
register "file" []
=> err ENOTDIR
# 6 mount point: an implicit dir inside it, or rows into it
register "mnt/sub" [f "a" "1"]
=> err EROFS
register "mnt/sub" []
=> err EROFS
register "mnt" [f "a" "1"]
=> err EROFS
# pair: a duplicate beats the mount point
register "mnt" [f "a" "1", f "a" "1"]
=> err EEXIST
# 7 a row name already present in the final directory
register "d" [f "new" "1", f "taken" "1"]
=> err EEXIST
# 8 entry limit: 5 allocated; 5 implicit dirs + 3 rows would make 13 > 12
register "p/q/r/s/t" [f "a" "1", f "b" "1", f "c" "1"]
=> err ENOSPC
# 4 implicit + 3 rows make exactly 12: fine
register "p/q/r/s" [f "a" "1", f "b" "1", f "c" "1"]
=> ok header 2
# full now: present name beats ENOSPC; a new name is ENOSPC
register "d" [f "taken" "1"]
=> err EEXIST
register "d" [f "n" "1"]
=> err ENOSPC
register "newdir" []
=> err ENOSPC
# 9 an empty table at a non-empty directory (needs no entries, so no ENOSPC)
register "d" []
=> err EINVAL
register "/" []
=> err EINVAL
# a second empty table at an existing empty mount point succeeds, even when full
register "mnt" []
=> ok header 3
dump
=> dump
| entry / dir ino=1 nlink=5 size=4 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /file file ino=2 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d dir ino=3 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/taken file ino=4 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /mnt dir ino=5 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=implicit hrefs=2 perm=0 open=0
| entry /p dir ino=6 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /p/q dir ino=7 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /p/q/r dir ino=8 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /p/q/r/s dir ino=9 nlink=2 size=3 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /p/q/r/s/a file ino=10 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /p/q/r/s/b file ino=11 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /p/q/r/s/c file ino=12 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| header 1 dir=/mnt rows=0
| header 2 dir=/p/q/r/s rows=3
| row 2 a file
| row 2 b file
| row 2 c file
| header 3 dir=/mnt rows=0
| ns 0 uid=0 gid=0
| next ino=13 header=4 handle=1 ns=1
| stats live=12 allocated=12 headers=3 handles=0
