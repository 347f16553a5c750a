# SEMANTICS §11: two Gen rows naming one source share its cache; unregister removes the files, not the source.
register "net" [s "dev" "dev", s "dev_mcast" "dev"]
=> ok header 1
source_add "dev" "eth0"
=> ok
open 0 "/net/dev"
=> ok handle 1
open 1 "/net/dev_mcast"
=> ok handle 2
read 0
=> ok read "eth0\n"
read 1
=> ok read "eth0\n"
unregister 1
=> ok
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| handle 1 ino=3 removed=1 pos=5 snap=5:612966ef8df5c3ca
| handle 2 ino=4 removed=1 pos=5 snap=5:612966ef8df5c3ca
| ns 0 uid=0 gid=0
| source dev gen=1 items=1 cache=1 builds=1
| item dev eth0
| next ino=5 header=2 handle=3 ns=1
| stats live=1 allocated=3 headers=0 handles=2
