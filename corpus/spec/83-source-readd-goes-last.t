# SEMANTICS §11: insertion order; an item removed and added again goes last; each success is one generation.
generated "/g" "s"
=> ok 2
source_add "s" "a"
=> ok
source_add "s" "b"
=> ok
source_add "s" "c"
=> ok
source_remove "s" "a"
=> ok
source_add "s" "a"
=> ok
open 0 "/g"
=> ok handle 1
read 0
=> ok read "b\nc\na\n"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=6 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=6 snap=6:eb76b464062fe26b
| ns 0 uid=0 gid=0
| source s gen=5 items=3 cache=1 builds=1
| item s b
| item s c
| item s a
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
