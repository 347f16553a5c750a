# SEMANTICS §12: a row without a mode gets its kind's default; a stated mode applies to dir, file and gen rows.
register "r" [f "a" "1", d "b", s "c" "s", f "d" "1" 0600, d "e" 0700, s "f" "s" 0640]
=> ok header 1
dump
=> dump
| entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /r dir ino=2 nlink=4 size=6 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /r/a file ino=3 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r/b dir ino=4 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /r/c generated ino=5 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r/d file ino=6 nlink=1 size=1 mode=0600 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r/e dir ino=7 nlink=2 size=0 mode=0700 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /r/f generated ino=8 nlink=1 size=0 mode=0640 uid=0 gid=0 owner=header:1 perm=0 open=0
| header 1 dir=/r rows=6
| row 1 a file
| row 1 b dir
| row 1 c generated:s
| row 1 d file
| row 1 e dir
| row 1 f generated:s
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=0 builds=0
| next ino=9 header=2 handle=1 ns=1
| stats live=8 allocated=8 headers=1 handles=0
