# SEMANTICS §12/§10: a namespace's owner is the default uid/gid of its entries, implicit directories included; chown through a view; the dump keeps the owner.
ns_create 1000 1001
=> ok ns 1
register_ns 1 "a/b" [f "c" "1" 0600]
=> ok header 1
@1 stat "/a"
=> ok stat ino=2 kind=dir ns=1 nlink=3 size=1 mode=0555 uid=1000 gid=1001 owner=implicit perm=0 open=0
@1 stat "/a/b/c"
=> ok stat ino=4 kind=file ns=1 nlink=1 size=1 mode=0600 uid=1000 gid=1001 owner=header:1 perm=0 open=0
@1 chown "/a/b/c" 0 0
=> ok
@1 chmod "/a/b" 0700
=> ok
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a dir ns=1 ino=2 nlink=3 size=1 mode=0555 uid=1000 gid=1001 owner=implicit hrefs=1 perm=0 open=0
| entry /a/b dir ns=1 ino=3 nlink=2 size=1 mode=0700 uid=1000 gid=1001 owner=implicit hrefs=1 perm=0 open=0
| entry /a/b/c file ns=1 ino=4 nlink=1 size=1 mode=0600 uid=0 gid=0 owner=header:1 perm=0 open=0
| header 1 ns=1 dir=/a/b rows=1
| row 1 c file
| ns 0 uid=0 gid=0
| ns 1 uid=1000 gid=1001
| next ino=5 header=2 handle=1 ns=2
| stats live=4 allocated=4 headers=1 handles=0
