# SEMANTICS §1/§4/§7: inode, header and handle numbers are never reused and a failed
# operation takes none; the dump's `next` line shows the three counters.
mkdir "/a"
=> ok 2
register "h" [f "x" "1"]
=> ok header 1
open 0 "/a/nope"
=> err ENOENT
open 0 "/h/x"
=> ok handle 1
register "h" [f "x" "1"]
=> err EEXIST
register "bad//" []
=> err EINVAL
mkdir "/a"
=> err EEXIST
open 1 "/a"
=> err EISDIR
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /h dir ino=3 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /h/x file ino=4 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=1
| header 1 dir=/h rows=1
| row 1 x file
| handle 1 ino=4 removed=0 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=5 header=2 handle=2 ns=1
| stats live=4 allocated=4 headers=1 handles=1
close 0
=> ok
unregister 1
=> ok
# nothing is reused after everything is gone
register "h" [f "x" "1"]
=> ok header 2
stat "/h/x"
=> ok stat ino=6 kind=file nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
open 0 "/h/x"
=> ok handle 2
close 0
=> ok
close 0
=> err EBADF
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /h dir ino=5 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /h/x file ino=6 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:2 perm=0 open=0
| header 2 dir=/h rows=1
| row 2 x file
| ns 0 uid=0 gid=0
| next ino=7 header=3 handle=3 ns=1
| stats live=4 allocated=4 headers=1 handles=0
