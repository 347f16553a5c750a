# SPEC C12.3 (§12): chmod check order.
# The case's lines in a namespace view (@7 chmod "/nope" 0644) need §10's views, which this tree does not have yet.
create "/f" "x"
=> ok 2
symlink "/l" "f"
=> ok 3
chmod "/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" 01000
=> err ENAMETOOLONG
chmod "/nope" 01000
=> err EINVAL
chmod "/nope" 0644
=> err ENOENT
chmod "/f/x" 0644
=> err ENOTDIR
chmod "/l" 0644
=> err EINVAL
chmod "/" 0700
=> ok
