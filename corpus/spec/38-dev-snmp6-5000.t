# The /proc/net/dev_snmp6 case: 5,000 entries in one directory, each looked up, listed in
# pages, then half removed during a scan. `repeat` lines show one summary each.
mkdir "/proc"
=> ok 2
mkdir "/proc/net"
=> ok 3
mkdir "/proc/net/dev_snmp6"
=> ok 4
repeat 5000 create "/proc/net/dev_snmp6/eth{i}" "Ip6InReceives 0\n"
=> repeat ok=5000 err=0; last: ok 5004
stat "/proc/net/dev_snmp6"
=> ok stat ino=4 kind=dir nlink=2 size=5000 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
lookup_at 4 "eth0"
=> ok stat ino=5 kind=file nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
lookup_at 4 "eth4999"
=> ok stat ino=5004 kind=file nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
lookup_at 4 "eth5000"
=> err ENOENT
repeat 5000 lookup_at 4 "eth{i}"
=> repeat ok=5000 err=0; last: ok stat ino=5004 kind=file nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
repeat 5000 stat "/proc/net/dev_snmp6/eth{i}"
=> repeat ok=5000 err=0; last: ok stat ino=5004 kind=file nlink=1 size=16 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
# every name is taken now; nothing is created and no number is used
repeat 5000 create "/proc/net/dev_snmp6/eth{i}" ""
=> repeat ok=0 err=5000; first err #0: err EEXIST; last: err EEXIST
opendir 0 "/proc/net/dev_snmp6"
=> ok cursor 4
readpage 0 3
=> ok page next=8 [5 f "eth0", 6 f "eth1", 7 f "eth2"]
repeat 1249 readpage 0 4
=> repeat ok=1249 err=0; last: ok page next=5004 [5000 f "eth4995", 5001 f "eth4996", 5002 f "eth4997", 5003 f "eth4998"]
readpage 0 4
=> ok page next=5005 [5004 f "eth4999"]
readpage 0 4
=> ok page next=5005 []
# remove the first half while a scan sits at the start: the scan resumes at eth2500
rewind 0
=> ok
readpage 0 2
=> ok page next=7 [5 f "eth0", 6 f "eth1"]
repeat 2500 remove "/proc/net/dev_snmp6/eth{i}"
=> repeat ok=2500 err=0; last: ok
readpage 0 2
=> ok page next=2507 [2505 f "eth2500", 2506 f "eth2501"]
stat "/proc/net/dev_snmp6"
=> ok stat ino=4 kind=dir nlink=2 size=2500 mode=0555 uid=0 gid=0 owner=explicit perm=0 open=0
create "/proc/net/dev_snmp6/eth0" ""
=> ok 5005
lookup_at 4 "eth0"
=> ok stat ino=5005 kind=file nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0
check
=> ok
remove_subtree "/proc/net/dev_snmp6"
=> ok removed 2502
stats
=> ok stats live=3 allocated=3 headers=0 handles=0
