# SPEC C11.3 (§11): source_add / source_remove check order.
limits max_content=12
source_add "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" ""
=> err ENAMETOOLONG
source_add "a/b" "x"
=> err EINVAL
source_add "s" "a\nb"
=> err EINVAL
source_add "s" "hello"
=> ok
source_add "s" "hello"
=> err EEXIST
source_add "s" "world!"
=> err EFBIG
source_add "s" "world"
=> ok
source_add "s" "hello"
=> err EEXIST
source_remove "s" "a\nb"
=> err EINVAL
source_remove "s" "nope"
=> err ENOENT
source_remove "t" "hello"
=> err ENOENT
source_remove "s" "hello"
=> ok
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| source s gen=3 items=1 cache=0 builds=0
| item s world
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
