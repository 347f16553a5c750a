# SEMANTICS §12: implicit directories and the root are 0555 0/0; a chmod of an implicit directory stays when it becomes explicit.
register "a/b" [f "x" "1"]
=> ok header 1
stat "/a"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
mkdir "/a/c"
=> ok 5
chmod "/a" 0500
=> ok
unregister 1
=> ok
stat "/a"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0500 uid=0 gid=0 owner=explicit perm=0 open=0
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ino=2 nlink=3 size=1 mode=0500 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /a/c dir ino=5 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=6 header=2 handle=1 ns=1
| stats live=3 allocated=3 headers=0 handles=0
