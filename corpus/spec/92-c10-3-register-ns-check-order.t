# SPEC C10.3 (§10): register_ns check order (and register's step 5a).
limits max_entries=8 max_table_rows=2
create "/file" ""
=> ok 2
register "mnt" []
=> ok header 1
ns_create 0 0
=> ok ns 1
register_ns 9 "a//b" [f "x" "1", f "y" "1", f "z" "1"]
=> err EINVAL
register_ns 9 "a" [f "x" "1", f "y" "1", f "z" "1"]
=> err E2BIG
register_ns 9 "a" [f "x" "1", f "x" "1"]
=> err EEXIST
register_ns 9 "file/a" [f "x" "1"]
=> err ENOENT
register_ns 1 "file/a" [f "x" "1"]
=> err ENOTDIR
register_ns 1 "mnt/a" [f "x" "1"]
=> err EROFS
register_ns 1 "" [f "file" "1"]
=> err EEXIST
register_ns 1 "p/q/r/s" [f "a" "1", f "b" "1"]
=> err ENOSPC
register_ns 1 "p/q/r" [f "a" "1", f "b" "1"]
=> ok header 2
register_ns 1 "p" []
=> err EINVAL
register "p/x" [f "y" "1"]
=> err EEXIST
