# SEMANTICS §11 generated: §4's order, the source name at step 2 (after path syntax, before the root and resolution checks).
limits max_entries=2
generated "/a//b" "a/b"
=> err EINVAL
generated "/a" ""
=> err EINVAL
generated "/a" "."
=> err EINVAL
generated "/" ""
=> err EINVAL
generated "/a" "s"
=> ok 2
generated "/b" "s"
=> err ENOSPC
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a generated ino=2 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=0 builds=0
| next ino=3 header=1 handle=1 ns=1
| stats live=2 allocated=2 headers=0 handles=0
