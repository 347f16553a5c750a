# SEMANTICS §4 unregister: an implicit directory whose hrefs reach 0 but that is not empty
# at that moment stays and becomes explicit; an explicit directory on the path stays.
register "sys/class/net" [f "x" "1"]
=> ok header 1
create "/sys/class/extra" ""
=> ok 6
unregister 1
=> ok
stat "/sys/class/net"
=> err ENOENT
stat "/sys/class"
=> ok stat ino=3 kind=dir nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
stat "/sys"
=> ok stat ino=2 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /sys dir ino=2 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /sys/class dir ino=3 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /sys/class/extra file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=7 header=2 handle=1 ns=1
| stats live=4 allocated=4 headers=0 handles=0
# now ordinary explicit directories: removable, markable
remove "/sys/class"
=> err ENOTEMPTY
mark_permanent "/sys/class/extra"
=> ok
remove_subtree "/sys"
=> err EBUSY
mkdir "/e"
=> ok 7
register "e/i" []
=> ok header 2
stat "/e"
=> ok stat ino=7 kind=dir nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
unregister 2
=> ok
stat "/e/i"
=> err ENOENT
stat "/e"
=> ok stat ino=7 kind=dir nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
remove "/e"
=> ok
