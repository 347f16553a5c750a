# SEMANTICS §5 readdir: up to max children with ino >= pos, ascending; next_pos = last
# returned + 1, or pos unchanged when nothing is returned. Checks: max not in
# 1..=max_readdir -> EINVAL; dir not live -> ENOENT; not a directory -> ENOTDIR.
limits max_readdir=4
mkdir "/d"
=> ok 2
create "/d/a" ""
=> ok 3
create "/d/b" ""
=> ok 4
create "/d/c" ""
=> ok 5
create "/d/d" ""
=> ok 6
create "/d/e" ""
=> ok 7
readdir 2 0 4
=> ok page next=7 [3 f "a", 4 f "b", 5 f "c", 6 f "d"]
readdir 2 7 4
=> ok page next=8 [7 f "e"]
readdir 2 8 4
=> ok page next=8 []
readdir 2 5 2
=> ok page next=7 [5 f "c", 6 f "d"]
# positions 0 and 1 are free for `.` and `..`; the tree never emits them
readdir 2 1 1
=> ok page next=4 [3 f "a"]
# any u64 is a valid position
readdir 2 18446744073709551615 4
=> ok page next=18446744073709551615 []
# check order
readdir 2 0 0
=> err EINVAL
readdir 2 0 5
=> err EINVAL
readdir 999 0 0
=> err EINVAL
readdir 3 0 5
=> err EINVAL
readdir 999 0 4
=> err ENOENT
readdir 0 0 1
=> err ENOENT
readdir 3 0 4
=> err ENOTDIR
readdir 1 0 4
=> ok page next=3 [2 d "d"]
readdir 1 3 4
=> ok page next=3 []
