# SEMANTICS §7: a listing renders its parent directory, one `<k>\t<name>\n` line per child in
# readdir order; it lists itself; it is rendered at read time, so every add and remove in
# that directory shows at the next read (core's cache must be invalidated).
mkdir "/net"
=> ok 2
listing "/net/dev"
=> ok 3
open 0 "/net/dev"
=> ok handle 1
read 0
=> ok read "g\tdev\n"
create "/net/b" ""
=> ok 4
read 0
=> ok read "g\tdev\nf\tb\n"
mkdir "/net/a"
=> ok 5
symlink "/net/z" "x"
=> ok 6
read 0
=> ok read "g\tdev\nf\tb\nd\ta\nl\tz\n"
remove "/net/b"
=> ok
read 0
=> ok read "g\tdev\nd\ta\nl\tz\n"
stat "/net/dev"
=> ok stat ino=3 kind=listing nlink=1 size=14 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
# a change inside a child directory does not change this directory's child set
mkdir "/net/a/x"
=> ok 7
read 0
=> ok read "g\tdev\nd\ta\nl\tz\n"
# raw name bytes
create "/net/\xff" ""
=> ok 8
listing "/net/dev2"
=> ok 9
read 0
=> ok read "g\tdev\nd\ta\nl\tz\nf\t\xff\ng\tdev2\n"
# a re-created name appears at its new (higher) position
remove "/net/z"
=> ok
symlink "/net/z" "y"
=> ok 10
read 0
=> ok read "g\tdev\nd\ta\nf\t\xff\ng\tdev2\nl\tz\n"
remove_subtree "/net/a"
=> ok removed 2
read 0
=> ok read "g\tdev\nf\t\xff\ng\tdev2\nl\tz\n"
open 1 "/net/dev2"
=> ok handle 2
read 1
=> ok read "g\tdev\nf\t\xff\ng\tdev2\nl\tz\n"
close 0
=> ok
close 1
=> ok
check
=> ok
