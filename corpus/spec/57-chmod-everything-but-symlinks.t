# SEMANTICS §12 chmod: directories, files, listings, generated files, header rows and the root; a symlink is EINVAL.
mkdir "/d"
=> ok 2
listing "/d/i"
=> ok 3
generated "/d/g" "s"
=> ok 4
register "r" [f "a" "1"]
=> ok header 1
symlink "/l" "d"
=> ok 7
chmod "/d" 0700
=> ok
chmod "/d/i" 0400
=> ok
chmod "/d/g" 0440
=> ok
chmod "/r/a" 0644
=> ok
chmod "/r" 0711
=> ok
chmod "/" 0755
=> ok
chmod "/l" 0777
=> err EINVAL
dump
=> dump
| entry / dir ino=1 nlink=4 size=3 mode=0755 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /d dir ino=2 nlink=2 size=2 mode=0700 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /d/i listing ino=3 nlink=1 size=8 mode=0400 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /d/g generated ino=4 nlink=1 size=0 mode=0440 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /r dir ino=5 nlink=2 size=1 mode=0711 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /r/a file ino=6 nlink=1 size=1 mode=0644 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /l symlink ino=7 nlink=1 size=1 mode=0777 uid=0 gid=0 owner=explicit perm=0 open=0
| header 1 dir=/r rows=1
| row 1 a file
| ns 0 uid=0 gid=0
| source s gen=0 items=0 cache=0 builds=0
| next ino=8 header=2 handle=1 ns=1
| stats live=7 allocated=7 headers=1 handles=0
