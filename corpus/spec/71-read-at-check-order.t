# SEMANTICS §11 read_at: EBADF for a never-filled slot and a closed handle, ENOENT once removed.
create "/f" "x"
=> ok 2
read_at 0 0 1
=> err EBADF
open 0 "/f"
=> ok handle 1
read_at 0 0 1
=> ok read "x"
remove "/f"
=> ok
read_at 0 0 1
=> err ENOENT
close 0
=> ok
read_at 0 0 1
=> err EBADF
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
