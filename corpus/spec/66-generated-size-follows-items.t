# SEMANTICS §11: a generated file's size is its rendering's length, kept as items change, without a build.
generated "/g" "s"
=> ok 2
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
source_add "s" "nodev\tsysfs"
=> ok
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=12 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
source_add "s" "ext4"
=> ok
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=17 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
source_remove "s" "nodev\tsysfs"
=> ok
stat "/g"
=> ok stat ino=2 kind=generated nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| source s gen=3 items=1 cache=0 builds=0
| item s ext4
| next ino=3 header=1 handle=1 ns=1
| stats live=2 allocated=2 headers=0 handles=0
