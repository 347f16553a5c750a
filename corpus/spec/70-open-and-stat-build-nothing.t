# SEMANTICS §11: open and stat render nothing; only a fresh snapshot of a generated file builds.
generated "/g" "s"
=> ok 2
source_add "s" "x"
=> ok
open 0 "/g"
=> ok handle 1
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=0 builds=0
| item s x
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
read_at 0 0 0
=> ok read ""
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=0 builds=0
| item s x
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
