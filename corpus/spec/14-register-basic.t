# SEMANTICS §4 register: missing directories are created implicit, outermost first, then the
# rows in table order; rows are owned by header:H; every directory on the path (root
# excluded) gets hrefs + 1.
register "net/ipv4/conf/eth0" [f "forwarding" "0", d "neigh"]
=> ok header 1
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /net dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4 dir ino=3 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf dir ino=4 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth0 dir ino=5 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth0/forwarding file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /net/ipv4/conf/eth0/neigh dir ino=7 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| header 1 dir=/net/ipv4/conf/eth0 rows=2
| row 1 forwarding file
| row 1 neigh dir
| ns 0 uid=0 gid=0
| next ino=8 header=2 handle=1 ns=1
| stats live=7 allocated=7 headers=1 handles=0
open 0 "/net/ipv4/conf/eth0/forwarding"
=> ok handle 1
read 0
=> ok read "0"
close 0
=> ok
# a pre-existing explicit directory on the path stays explicit and gets an href
mkdir "/proc"
=> ok 8
register "/proc/sys" [f "x" "1"]
=> ok header 2
stat "/proc"
=> ok stat ino=8 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/proc/sys"
=> ok stat ino=9 kind=dir nlink=2 size=1 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
stat "/proc/sys/x"
=> ok stat ino=10 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
# a header's rows into an existing directory that already holds other entries
create "/proc/sys/own" "o"
=> ok 11
register "proc/sys" [f "y" "2"]
=> ok header 3
# rows and header-used directories cannot be removed (§6)
remove "/net/ipv4/conf/eth0/forwarding"
=> err EBUSY
remove "/net/ipv4/conf/eth0/neigh"
=> err EBUSY
remove "/proc"
=> err EBUSY
# a dir row is an ordinary directory (not a mount point)
mkdir "/net/ipv4/conf/eth0/neigh/n1"
=> ok 13
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /net dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4 dir ino=3 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf dir ino=4 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth0 dir ino=5 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /net/ipv4/conf/eth0/forwarding file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /net/ipv4/conf/eth0/neigh dir ino=7 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /net/ipv4/conf/eth0/neigh/n1 dir ino=13 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /proc dir ino=8 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=2 perm=0 open=0
| entry /proc/sys dir ino=9 nlink=2 size=3 mode=0555 uid=0 gid=0 owner=implicit hrefs=2 perm=0 open=0
| entry /proc/sys/x file ino=10 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| entry /proc/sys/own file ino=11 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /proc/sys/y file ino=12 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:3 perm=0 open=0
| header 1 dir=/net/ipv4/conf/eth0 rows=2
| row 1 forwarding file
| row 1 neigh dir
| header 2 dir=/proc/sys rows=1
| row 2 x file
| header 3 dir=/proc/sys rows=1
| row 3 y file
| ns 0 uid=0 gid=0
| next ino=14 header=4 handle=2 ns=1
| stats live=13 allocated=13 headers=3 handles=0
