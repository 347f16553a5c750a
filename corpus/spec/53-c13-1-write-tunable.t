# SPEC C13.1 (§13): A tunable written through a handle; another handle keeps its snapshot.
register "net/ipv4" [f "ip_forward" "0\n" 0644]
=> ok header 1
open 0 "/net/ipv4/ip_forward"
=> ok handle 1
open 1 "/net/ipv4/ip_forward"
=> ok handle 2
read_at 1 0 1
=> ok read "0"
write 0 "1\n"
=> ok
read_at 1 1 5
=> ok read "\n"
read_at 1 0 5
=> ok read "1\n"
stat "/net/ipv4/ip_forward"
=> ok stat ino=4 kind=file nlink=1 size=2 mode=0644 uid=0 gid=0 owner=header:1 perm=0 open=2
