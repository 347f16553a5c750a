# SEMANTICS §11: a successful generated makes its source exist (empty, generation 0); a failed one does not.
generated "/nope/g" "early"
=> err ENOENT
generated "/g" "s"
=> ok 2
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
open 0 "/g"
=> ok handle 1
read 0
=> ok read ""
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=0 snap=0:cbf29ce484222325
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=1 builds=1
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
