# SEMANTICS §10 ns_create: live namespaces (0 included) bounded by max_namespaces; ids count up, are never reused, and a failed call takes none.
limits max_namespaces=3
ns_create 1 2
=> ok ns 1
ns_create 3 4
=> ok ns 2
ns_create 5 6
=> err ENOSPC
ns_destroy 2
=> ok 0
ns_create 7 8
=> ok ns 3
ns_create 9 10
=> err ENOSPC
ns_create 4294967295 0
=> err EINVAL
ns_create 0 4294967295
=> err EINVAL
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| ns 1 uid=1 gid=2
| ns 3 uid=7 gid=8
| next ino=2 header=1 handle=1 ns=4
| stats live=1 allocated=1 headers=0 handles=0
