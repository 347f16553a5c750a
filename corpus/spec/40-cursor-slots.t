# Harness semantics (not SEMANTICS.md): cursor slots. A never-opened cursor is (ino 0,
# pos 0): readpage is ENOENT, or EINVAL for a bad size (readdir checks max first). opendir
# on a non-directory succeeds (it only stats); readpage then reports ENOTDIR. A failed
# opendir leaves the cursor as it was. Handle slots: an empty slot passes id 0 -> EBADF.
readpage 15 1
=> err ENOENT
readpage 15 0
=> err EINVAL
read 15
=> err EBADF
close 9
=> err EBADF
create "/f" ""
=> ok 2
opendir 1 "/f"
=> ok cursor 2
readpage 1 1
=> err ENOTDIR
mkdir "/d"
=> ok 3
create "/d/x" ""
=> ok 4
opendir 2 "/d"
=> ok cursor 3
opendir 2 "/nope"
=> err ENOENT
readpage 2 5
=> ok page next=5 [4 f "x"]
seek 2 0
=> ok
readpage 2 5
=> ok page next=5 [4 f "x"]
seek 2 5
=> ok
readpage 2 5
=> ok page next=5 []
# the cursor on a removed directory: not live
remove "/d/x"
=> ok
remove "/d"
=> ok
readpage 2 5
=> err ENOENT
