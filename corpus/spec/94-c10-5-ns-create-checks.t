# SPEC C10.5 (§10): ns_create checks; ids never reused.
limits max_namespaces=2
ns_create 4294967295 0
=> err EINVAL
ns_create 0 0
=> ok ns 1
ns_create 0 0
=> err ENOSPC
ns_destroy 1
=> ok 0
ns_create 5 6
=> ok ns 2
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| ns 2 uid=5 gid=6
| next ino=2 header=1 handle=1 ns=3
| stats live=1 allocated=1 headers=0 handles=0
