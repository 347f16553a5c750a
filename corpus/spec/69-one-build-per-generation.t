# SEMANTICS §11: reads at one generation build once; a change invalidates; the next fresh snapshot builds again.
generated "/g" "s"
=> ok 2
source_add "s" "x"
=> ok
open 0 "/g"
=> ok handle 1
open 1 "/g"
=> ok handle 2
read 0
=> ok read "x\n"
read 1
=> ok read "x\n"
read 0
=> ok read "x\n"
source_add "s" "y"
=> ok
read_at 1 0 1
=> ok read "x"
read 0
=> ok read "x\ny\n"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=4 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=2
| handle 1 ino=2 removed=0 pos=4 snap=4:811b9a5297fa6da0
| handle 2 ino=2 removed=0 pos=1 snap=4:811b9a5297fa6da0
| ns 0 uid=0 gid=0
| source s gen=2 items=2 cache=1 builds=2
| item s x
| item s y
| next ino=3 header=1 handle=3 ns=1
| stats live=2 allocated=2 headers=0 handles=2
