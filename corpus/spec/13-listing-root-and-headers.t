# SEMANTICS §7 + §4: a listing in the root is invalidated by register/unregister creating and
# removing implicit directories, and by remove_subtree.
listing "/ls"
=> ok 2
open 0 "/ls"
=> ok handle 1
read 0
=> ok read "g\tls\n"
register "sys/x" [f "a" "1"]
=> ok header 1
read 0
=> ok read "g\tls\nd\tsys\n"
stat "/ls"
=> ok stat ino=2 kind=listing nlink=1 size=11 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
unregister 1
=> ok
read 0
=> ok read "g\tls\n"
mkdir "/t"
=> ok 6
mkdir "/t/u"
=> ok 7
read 0
=> ok read "g\tls\nd\tt\n"
remove_subtree "/t"
=> ok removed 2
read 0
=> ok read "g\tls\n"
# removing the listing itself while open: read is ENOENT
remove "/ls"
=> ok
read 0
=> err ENOENT
close 0
=> ok
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
