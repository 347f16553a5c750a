# SEMANTICS §9 escaping in dumps: 0x21..=0x7e raw except `\` -> `\\`; space, control and
# non-ASCII bytes -> \xHH lowercase. Header dir= paths and row names are escaped alike.
create "/a b" ""
=> ok 2
create "/\\" ""
=> ok 3
create "/\xc3\xa9" ""
=> ok 4
mkdir "/\"q\""
=> ok 5
create "/\"q\"/\x01\x7f" ""
=> ok 6
register "r s" [f "a b" "1", d "\xff"]
=> ok header 1
readdir 1 0 10
=> ok page next=8 [2 f "a b", 3 f "\\", 4 f "\xc3\xa9", 5 d "\"q\"", 7 d "r s"]
dump
=> dump
| entry / dir ino=1 nlink=4 size=5 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /a\x20b file ino=2 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /\\ file ino=3 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /\xc3\xa9 file ino=4 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /"q" dir ino=5 nlink=2 size=1 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /"q"/\x01\x7f file ino=6 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /r\x20s dir ino=7 nlink=3 size=2 mode=0555 uid=0 gid=0 owner=implicit hrefs=1 perm=0 open=0
| entry /r\x20s/a\x20b file ino=8 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=0
| entry /r\x20s/\xff dir ino=9 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=header:1 hrefs=0 perm=0 open=0
| header 1 dir=/r\x20s rows=2
| row 1 a\x20b file
| row 1 \xff dir
| ns 0 uid=0 gid=0
| next ino=10 header=2 handle=1 ns=1
| stats live=9 allocated=9 headers=1 handles=0
