# SEMANTICS §11 source_add: a duplicate item is EEXIST even when it would also pass max_content (EEXIST is checked before EFBIG).
limits max_content=4
source_add "s" "abc"
=> ok
source_add "s" "abc"
=> err EEXIST
source_add "s" "d"
=> err EFBIG
source_add "t" "abcd"
=> err EFBIG
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=0 builds=0
| item s abc
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
