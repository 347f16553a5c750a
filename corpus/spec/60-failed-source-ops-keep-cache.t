# SEMANTICS §11/§8.8: failed source_add and source_remove leave the cache valid and take no generation.
limits max_content=4
generated "/g" "s"
=> ok 2
source_add "s" "ab"
=> ok
open 0 "/g"
=> ok handle 1
read 0
=> ok read "ab\n"
source_add "s" "ab"
=> err EEXIST
source_add "s" "cd"
=> err EFBIG
source_remove "s" "zz"
=> err ENOENT
source_remove "s" ""
=> err EINVAL
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=3 snap=3:e71ff9190541eb20
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=1 builds=1
| item s ab
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
