# SEMANTICS §11: a symlink's snapshot is its target.
symlink "/l" "../target"
=> ok 2
open 0 "/l"
=> ok handle 1
read_at 0 0 3
=> ok read "../"
read_at 0 3 100
=> ok read "target"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /l symlink ino=2 nlink=1 size=9 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=9 snap=9:42dbb3d48f905bf7
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
