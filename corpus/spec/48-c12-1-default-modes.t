# SPEC C12.1 (§12): Defaults per kind.
mkdir "/d"
=> ok 2
create "/d/f" "x"
=> ok 3
symlink "/d/l" "f"
=> ok 4
listing "/d/i"
=> ok 5
generated "/d/g" "s"
=> ok 6
register "r" [f "a" "1", d "b", s "c" "s"]
=> ok header 1
dump
=> dump
| entry / dir ino=1 nlink=4 size=2 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /d dir ino=2 nlink=2 size=4 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/f file ino=3 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d/l symlink ino=4 nlink=1 size=1 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d/i listing ino=5 nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d/g generated ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /r dir ino=7 nlink=3 size=3 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /r/a file ino=8 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r/b dir ino=9 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| entry /r/c generated ino=10 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| header 1 dir=/r rows=3
| row 1 a file
| row 1 b dir
| row 1 c generated:s
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=0 builds=0
| next ino=11 header=2 handle=1 ns=1
| stats live=10 allocated=10 headers=1 handles=0
