# SEMANTICS §11 read_at: len 0 returns nothing and changes nothing, not the position, not the snapshot; it is checked after EBADF and ENOENT.
create "/f" "abc"
=> ok 2
open 0 "/f"
=> ok handle 1
read_at 0 1 0
=> ok read ""
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
read_at 0 0 2
=> ok read "ab"
read_at 0 9 0
=> ok read ""
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=2 snap=3:e71fa2190541574b
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
read_at 5 0 0
=> err EBADF
remove "/f"
=> ok
read_at 0 0 0
=> err ENOENT
