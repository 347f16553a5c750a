# SEMANTICS §3/§4: max_table_rows bounds one register table (E2BIG past it), checked before
# the rows themselves.
limits max_table_rows=3
register "t" [f "a" "1", f "b" "2", d "c"]
=> ok header 1
register "u" [f "a" "1", f "b" "2", f "c" "3", d "d"]
=> err E2BIG
register "u" [f "a" "1", f "a" "1", f "a" "1", f "a" "1"]
=> err E2BIG
register "t" [f "a" "1", f "b" "2", f "c" "3", f "." ""]
=> err E2BIG
register "u" []
=> ok header 2
stats
=> ok stats live=6 allocated=6 headers=2 handles=0
