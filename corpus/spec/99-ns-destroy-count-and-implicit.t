# SEMANTICS §10 ns_destroy: returns its entries plus the shared implicit directories its headers held alone (removed if empty, else made explicit); shared directories other headers hold stay.
ns_create 0 0
=> ok ns 1
register "proc/sys/net/core" [f "somaxconn" "4096\n"]
=> ok header 1
register_ns 1 "proc/sys/net/ipv4/conf/eth0" [f "forwarding" "0\n" 0644, f "mtu" "1500\n"]
=> ok header 2
register "x/y" [f "z" ""]
=> ok header 3
register_ns 1 "x/y" [f "n" ""]
=> ok header 4
mkdir "/x/other"
=> ok 16
unregister 3
=> ok
stats
=> ok stats live=15 allocated=15 headers=3 handles=0
ns_destroy 1
=> ok 7
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /proc dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /proc/sys dir ino=3 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /proc/sys/net dir ino=4 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /proc/sys/net/core dir ino=5 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /proc/sys/net/core/somaxconn file ino=6 nlink=1 size=5 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /x dir ino=12 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /x/other dir ino=16 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| header 1 dir=/proc/sys/net/core rows=1
| row 1 somaxconn file
| ns 0 uid=0 gid=0
| next ino=17 header=5 handle=1 ns=2
| stats live=8 allocated=8 headers=1 handles=0
