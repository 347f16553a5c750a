# SPEC C12.3 (§12): chmod check order.
create "/f" "x"
=> ok 2
symlink "/l" "f"
=> ok 3
chmod "/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" 01000
=> err ENAMETOOLONG
chmod "/nope" 01000
=> err EINVAL
@7 chmod "/nope" 0644
=> err ENOENT
chmod "/nope" 0644
=> err ENOENT
chmod "/f/x" 0644
=> err ENOTDIR
chmod "/l" 0644
=> err EINVAL
chmod "/" 0700
=> ok
