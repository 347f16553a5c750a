# SEMANTICS §12/§13: chmod and chown stay through writes, reads and handles; a failed chmod changes nothing.
create "/f" "a"
=> ok 2
chmod "/f" 0600
=> ok
chown "/f" 5 6
=> ok
open 0 "/f"
=> ok handle 1
write 0 "bc"
=> ok
read 0
=> ok read "bc"
chmod "/f" 01000
=> err EINVAL
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=2 mode=0600 uid=5 gid=6 owner=explicit perm=0 open=1
