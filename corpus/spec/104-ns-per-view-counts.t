# SEMANTICS §10 counts: nlink and size per view (shared plus the view's own), the dump shows totals; lookup_at reports the view's counts.
ns_create 0 0
=> ok ns 1
ns_create 0 0
=> ok ns 2
mkdir "/net"
=> ok 2
mkdir "/net/lo"
=> ok 3
register_ns 1 "net" [d "eth0", f "dev" "x"]
=> ok header 1
register_ns 2 "net" [d "eth0", d "wlan0"]
=> ok header 2
stat "/net"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
@1 stat "/net"
=> ok stat ino=2 kind=dir nlink=4 size=3 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
@2 stat "/net"
=> ok stat ino=2 kind=dir nlink=5 size=3 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
@2 lookup_at 1 "net"
=> ok stat ino=2 kind=dir nlink=5 size=3 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /net dir ino=2 nlink=6 size=5 mode=0555 uid=0 gid=0 owner=explicit hrefs=2 perm=0 open=0
| entry /net/lo dir ino=3 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /net/eth0 dir ns=1 ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /net/dev file ns=1 ino=5 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /net/eth0 dir ns=2 ino=6 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:2 hrefs=0 perm=0 open=0
| entry /net/wlan0 dir ns=2 ino=7 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:2 hrefs=0 perm=0 open=0
| header 1 ns=1 dir=/net rows=2
| row 1 eth0 dir
| row 1 dev file
| header 2 ns=2 dir=/net rows=2
| row 2 eth0 dir
| row 2 wlan0 dir
| ns 0 uid=0 gid=0
| ns 1 uid=0 gid=0
| ns 2 uid=0 gid=0
| next ino=8 header=3 handle=1 ns=3
| stats live=7 allocated=7 headers=2 handles=0
