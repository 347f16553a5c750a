# SEMANTICS §6 remove_subtree: removes the entry and all descendants, returns the count (1
# for a non-directory). Path errors first; then root, or any permanent, header-owned, or
# hrefs > 0 directory in the subtree -> EBUSY and nothing is removed.
mkdir "/t"
=> ok 2
mkdir "/t/a"
=> ok 3
create "/t/a/f" ""
=> ok 4
symlink "/t/l" "x"
=> ok 5
listing "/t/g"
=> ok 6
mkdir "/t/a/b"
=> ok 7
remove_subtree "/t/l"
=> ok removed 1
remove_subtree "/t"
=> ok removed 5
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
remove_subtree "/x//y"
=> err EINVAL
remove_subtree "/nope"
=> err ENOENT
remove_subtree "/"
=> err EBUSY
remove_subtree ""
=> err EBUSY
# header-owned entries and header-used directories
register "s/dev" [f "r" "1"]
=> ok header 1
mkdir "/s/own"
=> ok 11
remove_subtree "/s/own"
=> ok removed 1
remove_subtree "/s"
=> err EBUSY
remove_subtree "/s/dev/r"
=> err EBUSY
# an explicit directory inside the subtree with hrefs > 0
mkdir "/x"
=> ok 12
mkdir "/x/y"
=> ok 13
create "/x/y/f" ""
=> ok 14
register "x/y/z" []
=> ok header 2
remove_subtree "/x"
=> err EBUSY
stat "/x/y/f"
=> ok stat ino=14 kind=file nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
unregister 2
=> ok
remove_subtree "/x"
=> ok removed 3
# an open file inside the subtree stays allocated until closed
mkdir "/o"
=> ok 16
create "/o/f" "abc"
=> ok 17
open 0 "/o/f"
=> ok handle 1
remove_subtree "/o"
=> ok removed 2
stats
=> ok stats live=4 allocated=5 headers=1 handles=1
read 0
=> err ENOENT
close 0
=> ok
stats
=> ok stats live=4 allocated=4 headers=1 handles=0
