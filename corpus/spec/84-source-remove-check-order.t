# SEMANTICS §11 source_remove: the name (ENAMETOOLONG beats a bad item), then the item's syntax (before the source's existence), then the source, then the item; a failed remove changes nothing.
source_add "s" "x"
=> ok
source_remove "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" ""
=> err ENAMETOOLONG
source_remove "a/b" "x"
=> err EINVAL
source_remove "nope" ""
=> err EINVAL
source_remove "nope" "x"
=> err ENOENT
source_remove "s" "y"
=> err ENOENT
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| source s gen=1 items=1 cache=0 builds=0
| item s x
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
