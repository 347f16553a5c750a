# SEMANTICS §10: mount points are tree-wide: an empty table in a namespace or a shared one refuses creations of every tag there, and empty means no child of any tag.
ns_create 0 0
=> ok ns 1
register_ns 1 "m" []
=> ok header 1
mkdir "/m/x"
=> err ENOENT
register "m/y" [f "z" ""]
=> err EEXIST
register_ns 1 "m" [f "z" ""]
=> err EROFS
register "sm" []
=> ok header 2
register_ns 1 "sm" [f "a" ""]
=> err EROFS
register_ns 1 "sm/sub" [f "a" ""]
=> err EROFS
mkdir "/e"
=> ok 4
register_ns 1 "e" [f "a" ""]
=> ok header 3
register "e" []
=> err EINVAL
register_ns 1 "e" []
=> err EINVAL
