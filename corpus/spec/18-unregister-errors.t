# SEMANTICS §4 unregister: 1 unknown or already unregistered -> ENOENT; 2 any dir row with
# hrefs > 0 -> EBUSY (all rows checked for this first); 3 any dir row with children ->
# ENOTEMPTY. A failed unregister changes nothing.
unregister 0
=> err ENOENT
unregister 1
=> err ENOENT
register "a" [d "sub", f "f" "1"]
=> ok header 1
register "a/sub/deeper" [f "g" "1"]
=> ok header 2
mkdir "/a/sub/own"
=> ok 7
# sub has hrefs 1 and children: EBUSY wins over ENOTEMPTY
unregister 1
=> err EBUSY
unregister 2
=> ok
stat "/a"
=> ok stat ino=2 kind=dir nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
# now only ENOTEMPTY
unregister 1
=> err ENOTEMPTY
# all rows are checked for EBUSY before any for ENOTEMPTY: x (first) has children,
# y (second) has hrefs -> EBUSY
register "b" [d "x", d "y"]
=> ok header 3
mkdir "/b/x/kid"
=> ok 11
register "b/y/z" []
=> ok header 4
unregister 3
=> err EBUSY
remove "/b/x/kid"
=> ok
unregister 3
=> err EBUSY
unregister 4
=> ok
unregister 3
=> ok
stat "/b"
=> err ENOENT
remove "/a/sub/own"
=> ok
unregister 1
=> ok
unregister 1
=> err ENOENT
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| next ino=13 header=5 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
