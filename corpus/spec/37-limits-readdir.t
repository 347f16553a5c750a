# SEMANTICS §3/§5: max_readdir bounds one page; 0 or more than the limit is EINVAL, checked
# before the directory. A one-entry page walks a directory entry by entry.
limits max_readdir=1
mkdir "/d"
=> ok 2
create "/d/a" ""
=> ok 3
create "/d/b" ""
=> ok 4
readdir 2 0 2
=> err EINVAL
readdir 77 0 2
=> err EINVAL
readdir 2 0 0
=> err EINVAL
opendir 0 "/d"
=> ok cursor 2
readpage 0 2
=> err EINVAL
readpage 0 1
=> ok page next=4 [3 f "a"]
readpage 0 1
=> ok page next=5 [4 f "b"]
readpage 0 1
=> ok page next=5 []
# a repeat of pages: the summary shows the last
rewind 0
=> ok
repeat 3 readpage 0 1
=> repeat ok=3 err=0; last: ok page next=5 []
repeat 2 readpage 0 9
=> repeat ok=0 err=2; first err #0: err EINVAL; last: err EINVAL
