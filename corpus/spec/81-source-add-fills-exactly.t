# SEMANTICS §11 source_add: a rendering of exactly max_content bytes is allowed; one byte more is EFBIG, on a new source too, which then does not exist.
limits max_content=6
source_add "new" "abcdef"
=> err EFBIG
source_add "s" "ab"
=> ok
source_add "s" "cd"
=> ok
source_add "s" "e"
=> err EFBIG
dump
=> dump
| entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| ns 0 uid=0 gid=0
| source s gen=2 items=2 cache=0 builds=0
| item s ab
| item s cd
| next ino=2 header=1 handle=1 ns=1
| stats live=1 allocated=1 headers=0 handles=0
