# SEMANTICS §3: max_content bounds file content and symlink targets (EFBIG past it); an
# empty symlink target is EINVAL; listings are generated and not bounded by it.
limits max_content=8
create "/a" "12345678"
=> ok 2
create "/b" "123456789"
=> err EFBIG
symlink "/c" "123456789"
=> err EFBIG
symlink "/c" "12345678"
=> ok 3
symlink "/d" ""
=> err EINVAL
create "/e" ""
=> ok 4
register "r" [f "x" "123456789"]
=> err EFBIG
register "r" [f "x" "12345678", d "y"]
=> ok header 1
# EFBIG is checked before the name is found taken
create "/a" "123456789"
=> err EFBIG
listing "/g"
=> ok 8
open 0 "/g"
=> ok handle 1
read 0
=> ok read "f\ta\nl\tc\nf\te\nd\tr\ng\tg\n"
stat "/g"
=> ok stat ino=8 kind=listing nlink=1 size=20 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=1
