# SPEC C11.1 (§11): The /proc/filesystems pattern: insertion order, format, one build per generation.
generated "/filesystems" "filesystems"
=> ok 2
open 0 "/filesystems"
=> ok handle 1
read 0
=> ok read ""
source_add "filesystems" "nodev\tsysfs"
=> ok
source_add "filesystems" "\text4"
=> ok
source_add "filesystems" "nodev\tproc"
=> ok
read 0
=> ok read "nodev\tsysfs\n\text4\nnodev\tproc\n"
source_add "filesystems" "\text4"
=> err EEXIST
source_remove "filesystems" "\text4"
=> ok
source_add "filesystems" "\text4"
=> ok
read 0
=> ok read "nodev\tsysfs\nnodev\tproc\n\text4\n"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /filesystems generated ino=2 nlink=1 size=29 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=29 snap=29:3c57c3f620e80f9d
| ns 0 uid=0 gid=0
| source filesystems gen=5 items=3 cache=1 builds=3
| item filesystems nodev\x09sysfs
| item filesystems nodev\x09proc
| item filesystems \x09ext4
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
