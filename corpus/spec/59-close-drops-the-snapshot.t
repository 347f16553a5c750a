# SEMANTICS §11: close drops the snapshot; a new handle starts at 0 with none.
create "/f" "abc"
=> ok 2
open 0 "/f"
=> ok handle 1
read_at 0 0 1
=> ok read "a"
close 0
=> ok
open 0 "/f"
=> ok handle 2
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 2 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=3 ns=1
| stats live=2 allocated=2 headers=0 handles=1
