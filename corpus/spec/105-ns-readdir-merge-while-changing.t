# SEMANTICS §10: a readdir in a view merges shared and own children by inode while both change; a destroyed view ends the scan with ENOENT.
mkdir "/d"
=> ok 2
ns_create 0 0
=> ok ns 1
create "/d/s1" ""
=> ok 3
register_ns 1 "d" [f "n1" ""]
=> ok header 1
@1 opendir 0 "/d"
=> ok cursor 2
@1 readpage 0 1
=> ok page next=4 [3 f "s1"]
create "/d/s2" ""
=> ok 5
register_ns 1 "d" [f "n2" ""]
=> ok header 2
@1 readpage 0 2
=> ok page next=6 [4 f "n1", 5 f "s2"]
@1 readpage 0 2
=> ok page next=7 [6 f "n2"]
ns_destroy 1
=> ok 2
@1 readpage 0 2
=> err ENOENT
readdir 2 0 8
=> ok page next=6 [3 f "s1", 5 f "s2"]
