# SEMANTICS §4/§7: unregister removes the rows; a row file with open handles stays allocated
# until its last close, while the implicit directories go away at once (they are empty).
register "sys/kernel" [f "hostname" "box\n", f "ostype" "pdtree\n"]
=> ok header 1
open 0 "/sys/kernel/hostname"
=> ok handle 1
open 1 "/sys/kernel/hostname"
=> ok handle 2
read 0
=> ok read "box\n"
stat "/sys/kernel/hostname"
=> ok stat ino=4 kind=file nlink=1 size=4 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=2
unregister 1
=> ok
stat "/sys"
=> err ENOENT
stats
=> ok stats live=1 allocated=2 headers=0 handles=2
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| handle 1 ino=4 removed=1 pos=4 snap=4:cd0a4c9bc6901168
| handle 2 ino=4 removed=1 pos=0 snap=-
| ns 0 uid=0 gid=0
| next ino=6 header=2 handle=3 ns=1
| stats live=1 allocated=2 headers=0 handles=2
read 1
=> err ENOENT
close 1
=> ok
stats
=> ok stats live=1 allocated=2 headers=0 handles=1
close 0
=> ok
stats
=> ok stats live=1 allocated=1 headers=0 handles=0
