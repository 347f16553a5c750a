# SPEC C11.5 (§11): generated: the §4 creation order with the source name at step 2.
limits max_entries=4
create "/f" ""
=> ok 2
register "mnt" []
=> ok header 1
generated "/nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" "a/b"
=> err ENAMETOOLONG
generated "/" "a/b"
=> err EINVAL
generated "/" "s"
=> err EEXIST
generated "/nope/g" "s"
=> err ENOENT
generated "/f/g" "s"
=> err ENOTDIR
generated "/mnt/g" "s"
=> err EROFS
generated "/f" "s"
=> err EEXIST
generated "/g" "s"
=> ok 4
generated "/h" "s"
=> err ENOSPC
