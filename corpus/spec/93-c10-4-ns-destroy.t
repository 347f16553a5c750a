# SPEC C10.4 (§10): ns_destroy: open handle, headers, shared implicit dirs removed or made explicit; checks.
ns_create 0 0
=> ok ns 1
register "net" [f "unix" "u"]
=> ok header 1
register_ns 1 "net/dev/eth0" [f "mtu" "1500\n"]
=> ok header 2
register "sys/class" [f "a" ""]
=> ok header 3
register_ns 1 "sys/class" [d "eth0"]
=> ok header 4
mkdir "/sys/class/x"
=> ok 11
@1 open 0 "/net/dev/eth0/mtu"
=> ok handle 1
unregister 1
=> ok
unregister 3
=> ok
remove "/net"
=> err EBUSY
ns_destroy 1
=> ok 5
read 0
=> err ENOENT
stat "/sys/class"
=> ok stat ino=8 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stats
=> ok stats live=4 allocated=5 headers=0 handles=1
unregister 2
=> err ENOENT
ns_destroy 1
=> err ENOENT
ns_destroy 0
=> err EBUSY
close 0
=> ok
stats
=> ok stats live=4 allocated=4 headers=0 handles=0
