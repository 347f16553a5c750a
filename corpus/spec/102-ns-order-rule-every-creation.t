# SEMANTICS §10 order rule: in a shared directory every shared creation (mkdir, create, symlink, listing, generated, a register row, an implicit directory) is EEXIST at a name a tagged sibling holds; a tag-0 directory's creations take tag 0.
mkdir "/d"
=> ok 2
ns_create 0 0
=> ok ns 1
register_ns 1 "d" [f "x" ""]
=> ok header 1
mkdir "/d/x"
=> err EEXIST
create "/d/x" ""
=> err EEXIST
symlink "/d/x" "t"
=> err EEXIST
listing "/d/x"
=> err EEXIST
generated "/d/x" "s"
=> err EEXIST
register "d" [f "x" ""]
=> err EEXIST
register "d/x/y" [f "z" ""]
=> err EEXIST
register_ns 1 "d" [f "x" ""]
=> err EEXIST
register_ns 0 "d" [f "x" ""]
=> ok header 2
register_ns 0 "d2" [d "sub"]
=> ok header 3
mkdir "/d2/sub/own"
=> ok 7
stat "/d2/sub/own"
=> ok stat ino=7 kind=dir ns=0 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
