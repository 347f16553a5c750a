# SPEC C10.6 (§10): View checks in order; merge and exactly-once in a view while the directory changes.
mkdir "/d"
=> ok 2
ns_create 0 0
=> ok ns 1
create "/d/a" ""
=> ok 3
register_ns 1 "d" [f "b" ""]
=> ok header 1
create "/d/c" ""
=> ok 5
@1 readdir 2 0 2
=> ok page next=5 [3 f "a", 4 f "b"]
register_ns 1 "d" [f "e" ""]
=> ok header 2
remove "/d/c"
=> ok
@1 readdir 2 5 2
=> ok page next=7 [6 f "e"]
@9 readdir 2 0 0
=> err EINVAL
@9 readdir 2 0 1
=> err ENOENT
readdir 4 0 1
=> err ENOENT
@1 readdir 4 0 1
=> err ENOTDIR
@9 lookup_at 2 "."
=> err EINVAL
@9 lookup_at 2 "b"
=> err ENOENT
@9 open 0 "/d/b"
=> err ENOENT
@1 open 0 "/d/b"
=> ok handle 1
remove "/d"
=> err EBUSY
