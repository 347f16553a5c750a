# SEMANTICS §7 open/read/close: open -> path errors, a directory -> EISDIR; read -> content,
# target, or rendering; unknown or closed handle -> EBADF. Harness: an empty slot passes
# handle id 0 (never issued); a closed slot keeps its closed id.
mkdir "/d"
=> ok 2
create "/d/f" "hello\n"
=> ok 3
symlink "/d/l" "../f"
=> ok 4
listing "/d/g"
=> ok 5
create "/d/e" ""
=> ok 6
open 0 "/d"
=> err EISDIR
open 0 "/"
=> err EISDIR
open 0 "/nope"
=> err ENOENT
open 0 "/d/f/x"
=> err ENOTDIR
open 0 "d//f"
=> err EINVAL
read 0
=> err EBADF
close 0
=> err EBADF
open 0 "/d/f"
=> ok handle 1
read 0
=> ok read "hello\n"
open 1 "/d/l"
=> ok handle 2
read 1
=> ok read "../f"
open 2 "/d/g"
=> ok handle 3
read 2
=> ok read "f\tf\nl\tl\ng\tg\nf\te\n"
open 3 "/d/e"
=> ok handle 4
read 3
=> ok read ""
stat "/d/f"
=> ok stat ino=3 kind=file nlink=1 size=6 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
open 4 "/d/f"
=> ok handle 5
stat "/d/f"
=> ok stat ino=3 kind=file nlink=1 size=6 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=2
close 0
=> ok
read 0
=> err EBADF
close 0
=> err EBADF
stat "/d/f"
=> ok stat ino=3 kind=file nlink=1 size=6 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
# the other handle on the same file still reads
read 4
=> ok read "hello\n"
stats
=> ok stats live=6 allocated=6 headers=0 handles=4
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /d dir ino=2 nlink=2 size=4 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/f file ino=3 nlink=1 size=6 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| entry /d/l symlink ino=4 nlink=1 size=4 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=1
| entry /d/g listing ino=5 nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| entry /d/e file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 2 ino=4 removed=0 pos=4 snap=4:7132cfa6838c3000
| handle 3 ino=5 removed=0 pos=16 snap=16:429358497ac0e562
| handle 4 ino=6 removed=0 pos=0 snap=0:cbf29ce484222325
| handle 5 ino=3 removed=0 pos=6 snap=6:a9bc80cca21f28b3
| ns 0 uid=0 gid=0
| next ino=7 header=1 handle=6 ns=1
| stats live=6 allocated=6 headers=0 handles=4
close 1
=> ok
close 2
=> ok
close 3
=> ok
close 4
=> ok
stats
=> ok stats live=6 allocated=6 headers=0 handles=0
# handle ids are never reused; a failed open takes none and leaves the slot alone
open 5 "/d"
=> err EISDIR
read 5
=> err EBADF
open 0 "/d/f"
=> ok handle 6
open 5 "/d/e"
=> ok handle 7
open 5 "/nope"
=> err ENOENT
read 5
=> ok read ""
