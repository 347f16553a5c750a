# SEMANTICS §10: a view that is not live is ENOENT after the op's own argument checks and before the tree: stat, open, chmod, chown, lookup_at, readdir.
@5 stat "a//b"
=> err EINVAL
@5 stat "/"
=> err ENOENT
@5 open 0 "/"
=> err ENOENT
@5 chmod "/" 01000
=> err EINVAL
@5 chmod "/" 0700
=> err ENOENT
@5 chown "/" 4294967295 0
=> err EINVAL
@5 chown "/" 1 1
=> err ENOENT
@5 lookup_at 1 ""
=> err EINVAL
@5 lookup_at 1 "a"
=> err ENOENT
@5 readdir 1 0 0
=> err EINVAL
@5 readdir 1 0 1
=> err ENOENT
stat "/"
=> ok stat ino=1 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=1 open=0
