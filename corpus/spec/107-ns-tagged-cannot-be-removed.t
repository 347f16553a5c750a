# SEMANTICS §10: a tagged entry is invisible to view-0 removal (ENOENT) and to mark_permanent; a shared directory with a tagged child is ENOTEMPTY or EBUSY (its header) for remove and remove_subtree.
mkdir "/d"
=> ok 2
ns_create 0 0
=> ok ns 1
register_ns 1 "d" [f "x" ""]
=> ok header 1
remove "/d/x"
=> err ENOENT
remove_subtree "/d/x"
=> err ENOENT
mark_permanent "/d/x"
=> err ENOENT
remove "/d"
=> err EBUSY
remove_subtree "/d"
=> err EBUSY
unregister 1
=> ok
remove "/d"
=> ok
