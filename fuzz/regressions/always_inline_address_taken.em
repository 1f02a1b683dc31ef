# A local @always_inline function whose address is taken (`tab` returns it), called from an
# exported function in another subgraph: it cannot be copied (one owner keeps its identity),
# so at -O0 the caller kept a call where the serial always-inliner inlines it (the -O0
# symbol check: `f0` 123 bytes serially, 101 split, `--split subgraph -O0 --split-cost 1`;
# the `ember` campaign at -O0 found it in 2 of ~150 programs; the `--split-cost 39`
# report). Fixed in planner.import_small_callees: at -O0 such a function is imported as a
# hidden available_externally body (its owner exports it, and the locals it names, while
# compiling).
g0: Int = 0


def tab(k: Int) -> Callable[[Int, Int], Int]:
    return f1


@export
@noinline
def f0(x: Int, d: Int) -> Int:
    return f1(x, d) + 1


@always_inline
def f1(x: Int, d: Int) -> Int:
    global g0
    g0 = g0 + x
    return x + d


def main() -> Int:
    a: Int = f0(1, 2)
    fn: Callable[[Int, Int], Int] = tab(0)
    b: Int = fn(3, 4)
    print("f0", a, "tab", b, "g0", g0)
    return 0
