# SPEC C12.4 (§12): chown check order; symlinks can be chowned; nothing is enforced.
create "/f" "x"
=> ok 2
symlink "/l" "f"
=> ok 3
chown "/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" 4294967295 0
=> err ENAMETOOLONG
chown "/nope" 0 4294967295
=> err EINVAL
@7 chown "/nope" 1 1
=> err ENOENT
chown "/nope" 1 1
=> err ENOENT
chown "/l" 1000 1000
=> ok
stat "/l"
=> ok stat ino=3 kind=symlink nlink=1 size=1 mode=0777 uid=1000 gid=1000 owner=explicit perm=0 open=0
chmod "/f" 0000
=> ok
open 0 "/f"
=> ok handle 1
read 0
=> ok read "x"
