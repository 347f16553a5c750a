# SEMANTICS §10: namespace 0 never ends, so its entries may be explicit and permanent: creations under a tag-0 directory take tag 0; ns_destroy 0 is EBUSY.
register_ns 0 "n0" [d "dir"]
=> ok header 1
mkdir "/n0/dir/own"
=> ok 4
mark_permanent "/n0/dir/own"
=> ok
stat "/n0/dir/own"
=> ok stat ino=4 kind=dir ns=0 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
listing "/n0/dir/index"
=> ok 5
open 0 "/n0/dir/index"
=> ok handle 1
read 0
=> ok read "d\town\ng\tindex\n"
ns_destroy 0
=> err EBUSY
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /n0 dir ns=0 ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /n0/dir dir ns=0 ino=3 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /n0/dir/own dir ns=0 ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /n0/dir/index listing ns=0 ino=5 nlink=1 size=14 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| header 1 ns=0 dir=/n0 rows=1
| row 1 dir dir
| handle 1 ino=5 removed=0 pos=14 snap=14:8d72982003e67852
| ns 0 uid=0 gid=0
| next ino=6 header=2 handle=2 ns=1
| stats live=5 allocated=5 headers=1 handles=1
