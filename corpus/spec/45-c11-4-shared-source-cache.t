# SPEC C11.4 (§11): Two files share one cache; failed calls neither invalidate it nor take a generation.
generated "/a" "s"
=> ok 2
generated "/b" "s"
=> ok 3
source_add "s" "x"
=> ok
open 0 "/a"
=> ok handle 1
open 1 "/b"
=> ok handle 2
read 0
=> ok read "x\n"
read 1
=> ok read "x\n"
source_add "s" "x"
=> err EEXIST
source_remove "s" "y"
=> err ENOENT
read 0
=> ok read "x\n"
dump
=> dump
| entry / dir ino=1 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a generated ino=2 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| entry /b generated ino=3 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=2 snap=2:08f0de07b58d2b17
| handle 2 ino=3 removed=0 pos=2 snap=2:08f0de07b58d2b17
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=1 builds=1
| item s x
| next ino=4 header=1 handle=3 ns=1
| stats live=3 allocated=3 headers=0 handles=2
