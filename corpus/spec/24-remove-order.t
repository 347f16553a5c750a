# SEMANTICS §6 remove: path errors; root -> EBUSY; permanent -> EBUSY; owner header:_ ->
# EBUSY; a directory with hrefs > 0 -> EBUSY; a directory with children -> ENOTEMPTY.
remove "//"
=> err EINVAL
remove "/nope"
=> err ENOENT
remove "/"
=> err EBUSY
remove ""
=> err EBUSY
# permanent (pair: also not empty -> EBUSY wins)
mkdir "/p"
=> ok 2
mark_permanent "/p"
=> ok
mkdir "/p/c"
=> ok 3
remove "/p"
=> err EBUSY
# header-owned (pair: a dir row with children -> EBUSY wins)
register "h" [d "row", f "rf" "1"]
=> ok header 1
mkdir "/h/row/kid"
=> ok 7
remove "/h/row"
=> err EBUSY
remove "/h/rf"
=> err EBUSY
# hrefs > 0 (pair: also not empty -> EBUSY wins)
remove "/h"
=> err EBUSY
mkdir "/e"
=> ok 8
create "/e/f" ""
=> ok 9
register "e/g" []
=> ok header 2
remove "/e"
=> err EBUSY
unregister 2
=> ok
# children only
remove "/e"
=> err ENOTEMPTY
remove "/e/f"
=> ok
remove "/e"
=> ok
# non-directories of every kind
symlink "/s" "t"
=> ok 11
listing "/g"
=> ok 12
create "/f" "x"
=> ok 13
remove "/s"
=> ok
remove "/g"
=> ok
remove "/f"
=> ok
remove "/p/c"
=> ok
remove "/p"
=> err EBUSY
remove "/h/row/kid"
=> ok
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /p dir ino=2 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /h dir ino=4 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /h/row dir ino=5 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /h/rf file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| header 1 dir=/h rows=2
| row 1 row dir
| row 1 rf file
| ns 0 uid=0 gid=0
| next ino=14 header=3 handle=1 ns=1
| stats live=5 allocated=5 headers=1 handles=0
