# SPEC C12.5 (§12): A namespace's owner on its entries; chmod/chown through a view.
ns_create 100000 100000
=> ok ns 1
register_ns 1 "net/ipv4" [f "tcp_syncookies" "1\n" 0644]
=> ok header 1
@1 stat "/net"
=> ok stat ino=2 kind=dir ns=1 nlink=3 size=1 mode=0555 uid=100000 gid=100000 owner=implicit perm=0 open=0
@1 stat "/net/ipv4/tcp_syncookies"
=> ok stat ino=4 kind=file ns=1 nlink=1 size=2 mode=0644 uid=100000 gid=100000 owner=header:1 perm=0 open=0
chmod "/net/ipv4/tcp_syncookies" 0444
=> err ENOENT
@1 chmod "/net/ipv4/tcp_syncookies" 0444
=> ok
@1 chown "/net" 0 0
=> ok
@1 stat "/net"
=> ok stat ino=2 kind=dir ns=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=implicit perm=0 open=0
