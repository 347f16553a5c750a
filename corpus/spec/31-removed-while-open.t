# SEMANTICS §6/§7: a removed entry with open handles stays allocated, unreachable, until
# its last handle closes; read through such a handle is ENOENT (the handle stays open);
# close frees the entry on the last close.
create "/f" "data"
=> ok 2
open 0 "/f"
=> ok handle 1
open 1 "/f"
=> ok handle 2
remove "/f"
=> ok
stat "/f"
=> err ENOENT
read 0
=> err ENOENT
stats
=> ok stats live=1 allocated=2 headers=0 handles=2
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| handle 1 ino=2 removed=1 pos=0 snap=-
| handle 2 ino=2 removed=1 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=3 ns=1
| stats live=1 allocated=2 headers=0 handles=2
close 0
=> ok
stats
=> ok stats live=1 allocated=2 headers=0 handles=1
read 1
=> err ENOENT
close 1
=> ok
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
read 1
=> err EBADF
close 1
=> err EBADF
# the name is free again; the number is new
create "/f" "new"
=> ok 3
# a header's row file held open across unregister
register "r" [f "x" "1"]
=> ok header 1
open 2 "/r/x"
=> ok handle 3
unregister 1
=> ok
stats
=> ok stats live=2 allocated=3 headers=0 handles=1
read 2
=> err ENOENT
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=3 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| handle 3 ino=5 removed=1 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=6 header=2 handle=4 ns=1
| stats live=2 allocated=3 headers=0 handles=1
close 2
=> ok
stats
=> ok stats live=2 allocated=2 headers=0 handles=0
