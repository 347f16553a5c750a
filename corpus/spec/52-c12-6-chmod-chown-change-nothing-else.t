# SPEC C12.6 (§12): chmod/chown change nothing else: no build, no snapshot, no counter.
generated "/g" "s"
=> ok 2
source_add "s" "x"
=> ok
open 0 "/g"
=> ok handle 1
read_at 0 0 1
=> ok read "x"
chmod "/g" 0400
=> ok
chown "/g" 7 7
=> ok
read_at 0 1 1
=> ok read "\n"
mark_permanent "/g"
=> ok
chmod "/g" 0444
=> ok
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=2 mode=0444 uid=7 gid=7 owner=explicit perm=1 open=0
| handle 1 ino=2 removed=0 pos=2 snap=2:08f0de07b58d2b17
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=1 builds=1
| item s x
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
