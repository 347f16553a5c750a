# SEMANTICS §11 source_add: the source name is checked before the item (ENAMETOOLONG beats a bad item); a bad name or an empty, NUL- or newline-holding item is EINVAL.
source_add "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" ""
=> err ENAMETOOLONG
source_add "" "x"
=> err EINVAL
source_add "." "\n"
=> err EINVAL
source_add "s" ""
=> err EINVAL
source_add "s" "a\0b"
=> err EINVAL
source_add "s" "a\nb"
=> err EINVAL
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
