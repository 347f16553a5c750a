# SEMANTICS §13: a permanent file is writable; nothing but the content and size changes.
create "/f" "a"
=> ok 2
mark_permanent "/f"
=> ok
open 0 "/f"
=> ok handle 1
write 0 "bb"
=> ok
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| handle 1 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
