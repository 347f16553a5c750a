# SEMANTICS §12 step 3: the row count first (E2BIG), then per row in order its name, its content or source, then its mode.
limits max_table_rows=2 max_content=1
register "r" [f "a" "1" 01000, f "b" "1", f "c" "1"]
=> err E2BIG
register "r" [f "a" "12" 01000]
=> err EFBIG
register "r" [s "a" "x/y" 01000]
=> err EINVAL
register "r" [f "a" "1" 0644, d "b" 01000]
=> err EINVAL
register "r" [f "a" "1" 0644, f "a" "1" 0644]
=> err EEXIST
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
