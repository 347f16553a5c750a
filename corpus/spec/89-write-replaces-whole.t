# SEMANTICS §13: write replaces the whole content (not at the position) and resets the writer to 0, no snapshot.
create "/f" "0123456789"
=> ok 2
open 0 "/f"
=> ok handle 1
read_at 0 0 4
=> ok read "0123"
write 0 "ab"
=> ok
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
read_at 0 0 10
=> ok read "ab"
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=2 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
