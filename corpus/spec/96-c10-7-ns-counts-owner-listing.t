# SPEC C10.7 (§10): Counts per view, owner from the namespace, a shared listing, dump totals.
mkdir "/net"
=> ok 2
ns_create 1000 1000
=> ok ns 1
register_ns 1 "net" [d "dev", f "snmp" "s"]
=> ok header 1
register_ns 0 "net" [d "dev"]
=> ok header 2
stat "/net"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
@1 stat "/net"
=> ok stat ino=2 kind=dir nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
listing "/net/index"
=> ok 6
@1 open 0 "/net/index"
=> ok handle 1
read 0
=> ok read "g\tindex\n"
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /net dir ino=2 nlink=4 size=4 mode=0555 uid=0 gid=0 owner=explicit hrefs=2 perm=0 open=0
| entry /net/dev dir ns=1 ino=3 nlink=2 size=0 mode=0555 uid=1000 gid=1000 owner=header:1 hrefs=0 perm=0 open=0
| entry /net/snmp file ns=1 ino=4 nlink=1 size=1 mode=0444 uid=1000 gid=1000 owner=header:1 perm=0 open=0
| entry /net/dev dir ns=0 ino=5 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:2 hrefs=0 perm=0 open=0
| entry /net/index listing ino=6 nlink=1 size=8 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| header 1 ns=1 dir=/net rows=2
| row 1 dev dir
| row 1 snmp file
| header 2 ns=0 dir=/net rows=1
| row 2 dev dir
| handle 1 ino=6 removed=0 pos=8 snap=8:58cafcb4b533a56b
| ns 0 uid=0 gid=0
| ns 1 uid=1000 gid=1000
| next ino=7 header=3 handle=2 ns=2
| stats live=6 allocated=6 headers=2 handles=1
