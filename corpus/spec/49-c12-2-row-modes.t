# SPEC C12.2 (§12): Row modes: checked in step 3 after the row's name and content.
limits max_content=4 max_table_rows=2
register "sys" [f "a" "1" 01000, f "b" "1", f "c" "1"]
=> err E2BIG
register "sys" [f "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" "1" 01000]
=> err ENAMETOOLONG
register "sys" [f "a" "12345" 01000]
=> err EFBIG
register "sys" [f "a" "1" 01000, f "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" "1"]
=> err EINVAL
register "sys" [f "a" "1" 01000, f "a" "1"]
=> err EINVAL
register "sys" [f "a" "1" 0644, d "b" 0700]
=> ok header 1
stat "/sys/a"
=> ok stat ino=3 kind=file nlink=1 size=1 mode=0644 uid=0 gid=0 owner=header:1 perm=0 open=0
stat "/sys/b"
=> ok stat ino=4 kind=dir nlink=2 size=0 mode=0700 uid=0 gid=0 owner=header:1 perm=0 open=0
