# SEMANTICS §12 chmod: 0777 is the largest mode; 01000 and up are EINVAL, after path syntax (ENAMETOOLONG first) and before resolution.
create "/f" ""
=> ok 2
chmod "/f" 0777
=> ok
chmod "/f" 01000
=> err EINVAL
chmod "/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" 01000
=> err ENAMETOOLONG
chmod "/nope" 037777777777
=> err EINVAL
chmod "/f" 0000
=> ok
stat "/f"
=> ok stat ino=2 kind=file nlink=1 size=0 mode=0000 uid=0 gid=0 owner=explicit perm=0 open=0
