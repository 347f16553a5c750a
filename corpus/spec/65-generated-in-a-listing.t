# SEMANTICS §7/§14: a listing shows a generated file with the letter s.
mkdir "/proc"
=> ok 2
generated "/proc/filesystems" "fs"
=> ok 3
listing "/proc/index"
=> ok 4
open 0 "/proc/index"
=> ok handle 1
read 0
=> ok read "s\tfilesystems\ng\tindex\n"
