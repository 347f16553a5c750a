# SPEC C11.6 (§11): Gen rows: the source checked in row order; header-owned; listing letter `s`.
limits max_content=4
register "p" [s "x" "a/b", f "y" "12345"]
=> err EINVAL
register "p" [f "y" "12345", s "x" "a/b"]
=> err EFBIG
register "proc/net" [s "dev" "dev", f "unix" "u"]
=> ok header 1
listing "/proc/net/index"
=> ok 6
open 0 "/proc/net/index"
=> ok handle 1
read 0
=> ok read "s\tdev\nf\tunix\ng\tindex\n"
source_add "dev" "eth"
=> ok
open 1 "/proc/net/dev"
=> ok handle 2
read 1
=> ok read "eth\n"
stat "/proc/net/dev"
=> ok stat ino=4 kind=generated nlink=1 size=4 mode=0444 uid=0 gid=0 owner=header:1 perm=0 open=1
