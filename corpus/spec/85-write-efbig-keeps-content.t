# SEMANTICS §13/§8.8: content over max_content is EFBIG and the content stays; exactly max_content is fine.
limits max_content=3
create "/f" "abc"
=> ok 2
open 0 "/f"
=> ok handle 1
write 0 "abcd"
=> err EFBIG
read 0
=> ok read "abc"
write 0 "xyz"
=> ok
read 0
=> ok read "xyz"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /f file ino=2 nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=3 snap=3:bff4aa198026f420
| ns 0 uid=0 gid=0
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
