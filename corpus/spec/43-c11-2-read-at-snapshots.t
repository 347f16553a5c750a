# SPEC C11.2 (§11): read_at: continue from the snapshot; a fresh one at 0 or elsewhere; past the end.
generated "/g" "s"
=> ok 2
source_add "s" "aaaa"
=> ok
source_add "s" "bbbb"
=> ok
open 0 "/g"
=> ok handle 1
read_at 0 0 3
=> ok read "aaa"
source_add "s" "cccc"
=> ok
read_at 0 3 100
=> ok read "a\nbbbb\n"
read_at 0 10 5
=> ok read ""
read_at 0 12 3
=> ok read "cc\n"
read_at 0 40 5
=> ok read ""
read_at 0 0 0
=> ok read ""
read_at 0 5 5
=> ok read "bbbb\n"
dump
=> dump
| entry / dir ino=1 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /g generated ino=2 nlink=1 size=15 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
| handle 1 ino=2 removed=0 pos=10 snap=15:33cba354e28de585
| ns 0 uid=0 gid=0
| source s gen=3 items=3 cache=1 builds=2
| item s aaaa
| item s bbbb
| item s cccc
| next ino=3 header=1 handle=2 ns=1
| stats live=2 allocated=2 headers=0 handles=1
remove "/g"
=> ok
read_at 0 10 0
=> err ENOENT
close 0
=> ok
read_at 0 0 1
=> err EBADF
