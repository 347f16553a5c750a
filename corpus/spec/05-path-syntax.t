# SEMANTICS §2: one leading `/` is optional; "" and "/" name the root; an empty component
# is EINVAL; syntax is checked over the whole path, left to right, before resolution.
mkdir "a"
=> ok 2
stat "/a"
=> ok stat ino=2 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "a"
=> ok stat ino=2 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "a/"
=> err EINVAL
stat "/a/"
=> err EINVAL
stat "a//b"
=> err EINVAL
stat "//"
=> err EINVAL
stat "//a"
=> err EINVAL
stat "///"
=> err EINVAL
# missing component with bad syntax later: syntax wins (checked before resolution)
stat "/missing/x/"
=> err EINVAL
stat "/missing/x"
=> err ENOENT
# the first bad component decides: too long first, then dot
stat "/a/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn/."
=> err ENAMETOOLONG
stat "/a/./nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
=> err EINVAL
stat "/a//x/.."
=> err EINVAL
# creation ops use the same syntax: a trailing slash is not a directory hint
mkdir "/b/"
=> err EINVAL
mkdir "/b"
=> ok 3
