# SEMANTICS §12 chown: 4,294,967,294 is a valid id, 4,294,967,295 is EINVAL for either id, checked before resolution.
create "/f" ""
=> ok 2
chown "/f" 4294967294 4294967294
=> ok
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=0 mode=0444 uid=4294967294 gid=4294967294 owner=explicit perm=0 open=0
chown "/f" 4294967295 1
=> err EINVAL
chown "/f" 1 4294967295
=> err EINVAL
chown "/nope" 4294967295 4294967295
=> err EINVAL
chown "/f/x" 1 1
=> err ENOTDIR
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=0 mode=0444 uid=4294967294 gid=4294967294 owner=explicit perm=0 open=0
