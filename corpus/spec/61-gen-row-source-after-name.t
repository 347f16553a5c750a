# SEMANTICS §11/§12 step 3: a Gen row's name is checked before its source, rows in table order.
register "p" [s "" "a/b"]
=> err EINVAL
register "p" [s "x" "", f "y" "1"]
=> err EINVAL
register "p" [s "x" "s", s "x" "t"]
=> err EEXIST
register "p" [s "x" "s", s "y" "s"]
=> ok header 1
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /p dir ino=2 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /p/x generated ino=3 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /p/y generated ino=4 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| header 1 dir=/p rows=2
| row 1 x generated:s
| row 1 y generated:s
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=0 builds=0
| next ino=5 header=2 handle=1 ns=1
| stats live=4 allocated=4 headers=1 handles=0
