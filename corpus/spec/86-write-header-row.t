# SEMANTICS §13: a header-owned row is writable; unregister then frees it at its last close.
register "sys/net" [f "ip_forward" "0\n" 0644]
=> ok header 1
open 0 "/sys/net/ip_forward"
=> ok handle 1
write 0 "1\n"
=> ok
read 0
=> ok read "1\n"
unregister 1
=> ok
read 0
=> err ENOENT
close 0
=> ok
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
