# SEMANTICS §4: per-device sysctl tables under net/ipv4/conf/<dev>. Shared implicit
# directories count one href per header; unregister removes the rows, then releases the
# path innermost first, removing implicit directories whose hrefs reach 0 and are empty.
register "net/ipv4/conf/eth0" [f "forwarding" "0", f "mtu" "1500"]
=> ok header 1
register "net/ipv4/conf/eth1" [f "forwarding" "1", f "mtu" "9000"]
=> ok header 2
register "net/ipv4/conf/all" [f "forwarding" "0"]
=> ok header 3
stat "/net/ipv4/conf"
=> ok stat ino=4 kind=dir nlink=5 size=3 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
opendir 0 "/net/ipv4/conf"
=> ok cursor 4
readpage 0 2
=> ok page next=9 [5 d "eth0", 8 d "eth1"]
readpage 0 2
=> ok page next=12 [11 d "all"]
readpage 0 2
=> ok page next=12 []
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /net dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=3 perm=0 open=0
| entry /net/ipv4 dir ino=3 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=3 perm=0 open=0
| entry /net/ipv4/conf dir ino=4 nlink=5 size=3 mode=0555 uid=0 gid=0 owner=implicit hrefs=3 perm=0 open=0
| entry /net/ipv4/conf/eth0 dir ino=5 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth0/forwarding file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /net/ipv4/conf/eth0/mtu file ino=7 nlink=1 size=4 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /net/ipv4/conf/eth1 dir ino=8 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth1/forwarding file ino=9 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /net/ipv4/conf/eth1/mtu file ino=10 nlink=1 size=4 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /net/ipv4/conf/all dir ino=11 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/all/forwarding file ino=12 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:3 perm=0 open=0
| header 1 dir=/net/ipv4/conf/eth0 rows=2
| row 1 forwarding file
| row 1 mtu file
| header 2 dir=/net/ipv4/conf/eth1 rows=2
| row 2 forwarding file
| row 2 mtu file
| header 3 dir=/net/ipv4/conf/all rows=1
| row 3 forwarding file
| ns 0 uid=0 gid=0
| next ino=13 header=4 handle=1 ns=1
| stats live=12 allocated=12 headers=3 handles=0
# eth1 goes away: its rows and its implicit directory; the shared path stays
unregister 2
=> ok
stat "/net/ipv4/conf/eth1"
=> err ENOENT
stat "/net/ipv4/conf"
=> ok stat ino=4 kind=dir nlink=4 size=2 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
unregister 2
=> err ENOENT
unregister 1
=> ok
unregister 3
=> ok
# the last header released the whole implicit chain
stat "/net"
=> err ENOENT
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| next ino=13 header=4 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
# registering again takes fresh numbers
register "net/ipv4/conf/eth0" [f "forwarding" "0"]
=> ok header 4
stat "/net/ipv4/conf/eth0/forwarding"
=> ok stat ino=17 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:4 perm=0 open=0
