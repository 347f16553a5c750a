# SPEC C10.1 (§10): Per-namespace directories under shared ones; merged readdir; isolation.
register "net/ipv4" [f "ip_forward" "0\n"]
=> ok header 1
ns_create 0 0
=> ok ns 1
register_ns 1 "net/ipv4/conf/eth0" [f "forwarding" "0\n"]
=> ok header 2
register_ns 0 "net/ipv4/conf/lo" [f "forwarding" "1\n"]
=> ok header 3
readdir 3 0 8
=> ok page next=9 [4 f "ip_forward", 8 d "conf"]
@1 readdir 3 0 8
=> ok page next=6 [4 f "ip_forward", 5 d "conf"]
stat "/net/ipv4/conf/eth0"
=> err ENOENT
@1 stat "/net/ipv4/conf/eth0/forwarding"
=> ok stat ino=7 kind=file ns=1 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
lookup_at 5 "eth0"
=> err ENOENT
@2 stat "/"
=> err ENOENT
