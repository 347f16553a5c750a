# SEMANTICS §2: resolution walks from the root; a missing component is ENOENT, a
# non-directory with components left after it is ENOTDIR; symlinks are never followed.
mkdir "/a"
=> ok 2
create "/a/f" "data"
=> ok 3
symlink "/a/l" "/a"
=> ok 4
stat "/a/f/x"
=> err ENOTDIR
stat "/a/f/x/y"
=> err ENOTDIR
stat "/a/missing/x"
=> err ENOENT
stat "/a/missing"
=> err ENOENT
# the symlink is a non-directory: not followed
stat "/a/l/f"
=> err ENOTDIR
stat "/a/l"
=> ok stat ino=4 kind=symlink nlink=1 size=2 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
open 0 "/a/l"
=> ok handle 1
read 0
=> ok read "/a"
close 0
=> ok
# every path-taking op resolves the same way
mkdir "/a/f/x"
=> err ENOTDIR
remove "/a/f/x"
=> err ENOTDIR
remove_subtree "/a/zz"
=> err ENOENT
mark_permanent "/a/f/x"
=> err ENOTDIR
open 1 "/a/f/x"
=> err ENOTDIR
listing "/a/l/g"
=> err ENOTDIR
register "a/f/t" [f "x" "1"]
=> err ENOTDIR
# readdir on a non-directory inode
readdir 3 0 10
=> err ENOTDIR
