# SPEC C10.2 (§10): The seed-003 order rule: shared after per-namespace is EEXIST; the other order merges.
ns_create 0 0
=> ok ns 1
register_ns 1 "net/core" [f "somaxconn" "4096\n"]
=> ok header 1
register "net/unix" [f "max_dgram_qlen" "10\n"]
=> err EEXIST
mkdir "/net"
=> err EEXIST
register "proc/net" [f "unix" "u\n"]
=> ok header 2
register_ns 1 "proc/net" [f "dev" "d\n"]
=> ok header 3
register_ns 1 "proc/net" [f "unix" "x"]
=> err EEXIST
create "/proc/net/dev" ""
=> err EEXIST
readdir 6 0 8
=> ok page next=8 [7 f "unix"]
@1 readdir 6 0 8
=> ok page next=9 [7 f "unix", 8 f "dev"]
ns_destroy 1
=> ok 4
register "net/unix" [f "max_dgram_qlen" "10\n"]
=> ok header 4
