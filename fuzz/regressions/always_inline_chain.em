# An exported @always_inline function calling another: at -O0 the serial always-inliner
# inlines `leaf` into `mid` and both into `top`; a split subgraph holding `top` imported
# `mid` (as an available_externally body) but not `leaf` (imports were not transitive), so
# `top` kept a call to `leaf`: `top` 22 bytes serially, 57 split (`--split subgraph -O0
# --split-cost 1`; the -O0 symbol check compares function sizes). Found while reproducing
# the @always_inline size difference at -O0; fixed in planner.import_small_callees
# (the always-inline callees of an always-inline import come too).
@export
@always_inline
def leaf(x: Int, d: Int) -> Int:
    return x * 3 + d


@export
@always_inline
def mid(x: Int, d: Int) -> Int:
    return leaf(x, d) + leaf(d, x)


@export
def top(x: Int, d: Int) -> Int:
    return mid(x, d) + 1


def main() -> None:
    print(top(1, 2))
