# Miscompiled at -O2 (prints `f3 1`; the interpreter and -O0/-O1 print `f3 3`): after
# canonicalize and cse, the loop's exit block computes `acc ^ g0 ^ g0` from the loop's
# last `acc`; upstream MLIR 22's `sccp` folds that to `acc` and takes `acc`'s lattice value
# from the loop's *first* visit (`remui(x, 1) + 1 = 1`, with `i | 1 == 1` for i = 0) and
# never revisits it when the back edge makes `acc` overdefined: `return 1`. Found by the
# differential fuzzer (ember strategy, seed 2, 39 programs: interpreter vs --split none
# -O2), reduced by `ember reduce --property wrong-output` from 171 to 16 lines.
# FIXED by leaving `sccp` out of the -O2 midend (compiler/midend/pipeline.py): LLVM's own
# SCCP and IPSCCP run after lowering.
# Reproduce: ember build midend_sccp_stale_fold.em -O2 --emit mlir -o -   (f3 returned a constant 1)
#            ember run midend_sccp_stale_fold.em -O2 --split none; ember interp midend_sccp_stale_fold.em
g0: Int = -500

@export
@noinline
def f3(x: Int, d: Int) -> Int:
    global g0
    acc: Int = x
    for i in range(4):
        acc = Int(UInt64(acc) % UInt64(i | 1))
        acc = acc + 1
    acc = acc ^ g0
    acc = acc ^ g0
    return acc

def main() -> Int:
    a2: Int = f3(40, 24)
    print('f3', a2)
    return 0
