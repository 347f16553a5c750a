# SEMANTICS §5 ordering guarantee: one scan interleaved with mutations returns every child
# that existed for the whole scan exactly once, never an entry after its removal, strictly
# ascending. The old index-based resume skipped a live entry when entries before the cursor
# were removed; inode positions do not.
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
create "/d/f" ""
=> ok 8
opendir 0 "/d"
=> ok cursor 2
readpage 0 2
=> ok page next=5 [3 f "a", 4 f "b"]
# remove two entries before the cursor: c and d must still come next
remove "/d/a"
=> ok
remove "/d/b"
=> ok
readpage 0 2
=> ok page next=7 [5 f "c", 6 f "d"]
# remove one after the cursor (never returned) and one before; create one (appears)
remove "/d/e"
=> ok
remove "/d/c"
=> ok
create "/d/g" ""
=> ok 9
readpage 0 2
=> ok page next=10 [8 f "f", 9 f "g"]
readpage 0 2
=> ok page next=10 []
# a failed page leaves the cursor where it was
readpage 0 0
=> err EINVAL
seek 0 6
=> ok
readpage 0 10
=> ok page next=10 [6 f "d", 8 f "f", 9 f "g"]
rewind 0
=> ok
readpage 0 10
=> ok page next=10 [6 f "d", 8 f "f", 9 f "g"]
# remove the entry right after the cursor
opendir 1 "/d"
=> ok cursor 2
readpage 1 1
=> ok page next=7 [6 f "d"]
remove "/d/f"
=> ok
readpage 1 1
=> ok page next=10 [9 f "g"]
readpage 1 1
=> ok page next=10 []
# cursor 0 is independent of cursor 1
readpage 0 10
=> ok page next=10 []
