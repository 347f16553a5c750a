# SEMANTICS §11 read_at: a read at an offset other than the position re-renders, as seq_file's traverse does.
mkdir "/d"
=> ok 2
listing "/d/i"
=> ok 3
open 0 "/d/i"
=> ok handle 1
read_at 0 0 3
=> ok read "g\ti"
mkdir "/d/a"
=> ok 4
read_at 0 1 3
=> ok read "\ti\n"
read_at 0 4 4
=> ok read "d\ta\n"
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /d dir ino=2 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/i listing ino=3 nlink=1 size=8 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| entry /d/a dir ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| handle 1 ino=3 removed=0 pos=8 snap=8:495fe51a86dba15e
| ns 0 uid=0 gid=0
| next ino=5 header=1 handle=2 ns=1
| stats live=4 allocated=4 headers=0 handles=1
