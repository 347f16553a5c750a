# SPEC C13.3 (§13): A write does not invalidate the parent's listing; a permanent File is writable.
mkdir "/d"
=> ok 2
create "/d/f" "a"
=> ok 3
listing "/d/i"
=> ok 4
open 0 "/d/i"
=> ok handle 1
read 0
=> ok read "f\tf\ng\ti\n"
mark_permanent "/d/f"
=> ok
open 1 "/d/f"
=> ok handle 2
write 1 "bbb"
=> ok
read 0
=> ok read "f\tf\ng\ti\n"
stat "/d/f"
=> ok stat ino=3 kind=file nlink=1 size=3 mode=0444 uid=0 gid=0 owner=explicit perm=1 open=0
