# SEMANTICS §10: register_ns 0 makes entries tagged 0, seen by view 0 only; a later shared register at the same name is EEXIST (step 5a or 7).
ns_create 0 0
=> ok ns 1
register_ns 0 "conf" [d "lo"]
=> ok header 1
@1 stat "/conf"
=> err ENOENT
stat "/conf/lo"
=> ok stat ino=3 kind=dir ns=0 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 perm=0 open=0
register "conf" [f "x" ""]
=> err EEXIST
register "/" [f "conf" ""]
=> err EEXIST
register_ns 1 "conf" [d "lo"]
=> ok header 2
@1 readdir 1 0 8
=> ok page next=5 [4 d "conf"]
readdir 1 0 8
=> ok page next=3 [2 d "conf"]
