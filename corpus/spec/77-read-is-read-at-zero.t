# SEMANTICS §11: read is read_at(0, all): a fresh snapshot, the position at its end.
create "/f" "hello"
=> ok 2
open 0 "/f"
=> ok handle 1
read_at 0 0 2
=> ok read "he"
read 0
=> ok read "hello"
read_at 0 5 1
=> ok read ""
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=5 snap=5:a430d84680aabd0b
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
