# SEMANTICS §7: a permanent entry's references are not tracked: opening it takes none and its
# open_refs is always 0. Marking an entry permanent sets open_refs to 0; a handle opened before
# stays valid, and closing it gives nothing back.
create "/p" "v"
=> ok 2
mark_permanent "/p"
=> ok
open 0 "/p"
=> ok handle 1
stat "/p"
=> ok stat ino=2 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
read 0
=> ok read "v"
close 0
=> ok
stat "/p"
=> ok stat ino=2 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
create "/q" "w"
=> ok 3
open 1 "/q"
=> ok handle 2
stat "/q"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
mark_permanent "/q"
=> ok
stat "/q"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
open 2 "/q"
=> ok handle 3
stat "/q"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
dump
=> dump
| entry / dir ino=1 nlink=2 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /p file ino=2 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| entry /q file ino=3 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
| handle 2 ino=3 removed=0 pos=0 snap=-
| handle 3 ino=3 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=4 header=1 handle=4 ns=1
| stats live=3 allocated=3 headers=0 handles=2
close 2
=> ok
stat "/q"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
read 1
=> ok read "w"
close 1
=> ok
stat "/q"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
# a permanent listing renders at read time all the same
listing "/g"
=> ok 4
mark_permanent "/g"
=> ok
open 3 "/g"
=> ok handle 4
read 3
=> ok read "f\tp\nf\tq\ng\tg\n"
stat "/g"
=> ok stat ino=4 kind=listing nlink=1 size=12 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
stats
=> ok stats live=4 allocated=4 headers=0 handles=1
