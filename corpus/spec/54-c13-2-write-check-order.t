# SPEC C13.2 (§13): write check order.
limits max_content=4
create "/f" "x"
=> ok 2
symlink "/l" "f"
=> ok 3
listing "/i"
=> ok 4
open 0 "/f"
=> ok handle 1
open 1 "/l"
=> ok handle 2
open 2 "/i"
=> ok handle 3
write 5 "y"
=> err EBADF
write 1 "y"
=> err EINVAL
write 2 "y"
=> err EINVAL
write 0 "12345"
=> err EFBIG
write 0 ""
=> ok
read 0
=> ok read ""
remove "/f"
=> ok
write 0 "y"
=> err ENOENT
