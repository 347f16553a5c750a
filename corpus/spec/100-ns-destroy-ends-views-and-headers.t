# SEMANTICS §10 ns_destroy: the namespace's view is ENOENT afterwards, its headers' unregister is ENOENT, a handle opened in its view on a shared entry stays valid.
create "/shared" "s"
=> ok 2
ns_create 0 0
=> ok ns 1
register_ns 1 "n" [f "own" "o"]
=> ok header 1
@1 open 0 "/shared"
=> ok handle 1
@1 open 1 "/n/own"
=> ok handle 2
ns_destroy 1
=> ok 2
read 0
=> ok read "s"
read 1
=> err ENOENT
@1 stat "/shared"
=> err ENOENT
unregister 1
=> err ENOENT
stats
=> ok stats live=2 allocated=3 headers=0 handles=2
