# SEMANTICS §5: children created during a scan appear iff their inode is above the cursor
# (always, since numbers only grow). A removed and re-created name is a new entry with a
# new, higher inode, so the scan returns it again under its new number.
mkdir "/d"
=> ok 2
create "/d/x" ""
=> ok 3
create "/d/y" ""
=> ok 4
opendir 3 "/d"
=> ok cursor 2
readpage 3 1
=> ok page next=4 [3 f "x"]
create "/d/new" ""
=> ok 5
remove "/d/x"
=> ok
create "/d/x" "again"
=> ok 6
readpage 3 10
=> ok page next=7 [4 f "y", 5 f "new", 6 f "x"]
mkdir "/d/z"
=> ok 7
readpage 3 10
=> ok page next=8 [7 d "z"]
readpage 3 10
=> ok page next=8 []
# creation in another directory takes a number but does not appear here
create "/other" ""
=> ok 8
create "/d/last" ""
=> ok 9
readpage 3 10
=> ok page next=10 [9 f "last"]
