# SEMANTICS §2: a name is 1..=255 bytes, any bytes except `/` and NUL, not `.` or `..`;
# UTF-8 is not required. Order: empty, too long, `/` or NUL, dot names.
lookup_at 1 ""
=> err EINVAL
lookup_at 1 "a/b"
=> err EINVAL
lookup_at 1 "a\0b"
=> err EINVAL
lookup_at 1 "\0"
=> err EINVAL
lookup_at 1 "."
=> err EINVAL
lookup_at 1 ".."
=> err EINVAL
# three dots and dot-prefixed names are ordinary names
mkdir "/..."
=> ok 2
mkdir "/.x"
=> ok 3
# non-UTF-8, tab and space are fine
create "/\xff\xfe" ""
=> ok 4
create "/tab\tname sp" ""
=> ok 5
create "/a\\b" "backslash"
=> ok 6
# in paths the same rules apply per component; syntax is checked before resolution
mkdir "/a\0b"
=> err EINVAL
mkdir "/."
=> err EINVAL
mkdir "/.."
=> err EINVAL
mkdir "/missing/../b"
=> err EINVAL
lookup_at 1 "\xff\xfe"
=> ok stat ino=4 kind=file nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
readdir 1 0 10
=> ok page next=7 [2 d "...", 3 d ".x", 4 f "\xff\xfe", 5 f "tab\tname sp", 6 f "a\\b"]
# §9 escaping: 0x21..=0x7e raw except `\` -> `\\`; anything else \xHH
dump
=> dump
| entry / dir ino=1 nlink=4 size=5 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0
| entry /... dir ino=2 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /.x dir ino=3 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=0 open=0
| entry /\xff\xfe file ino=4 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /tab\x09name\x20sp file ino=5 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| entry /a\\b file ino=6 nlink=1 size=9 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
| ns 0 uid=0 gid=0
| next ino=7 header=1 handle=1 ns=1
| stats live=6 allocated=6 headers=0 handles=0
