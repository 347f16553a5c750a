# SEMANTICS §11 read_at: continuing reads the snapshot; a read at 0 takes a fresh one.
create "/f" "abcdef"
=> ok 2
open 0 "/f"
=> ok handle 1
open 1 "/f"
=> ok handle 2
read_at 0 0 2
=> ok read "ab"
write 1 "XYZ"
=> ok
read_at 0 2 2
=> ok read "cd"
read_at 0 4 10
=> ok read "ef"
read_at 0 0 10
=> ok read "XYZ"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=2
| handle 1 ino=2 removed=0 pos=3 snap=3:d303aa1a1b57c000
| handle 2 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=3 ns=1
| stats live=2 allocated=2 headers=0 handles=2
