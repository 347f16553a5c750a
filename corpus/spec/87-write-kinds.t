# SEMANTICS §13 write: only a file; a generated file and a listing are EINVAL, checked after ENOENT.
generated "/g" "s"
=> ok 2
listing "/i"
=> ok 3
open 0 "/g"
=> ok handle 1
open 1 "/i"
=> ok handle 2
write 0 "x"
=> err EINVAL
write 1 "x"
=> err EINVAL
remove "/g"
=> ok
write 0 "x"
=> err ENOENT
