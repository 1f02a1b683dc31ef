# RUN: %ember run %s -O2 | %FileCheck %s
# RUN: %ember interp %s | %FileCheck %s
# The CPU grid emulator and the interpreter run every (block, thread): 3 x 2 blocks of 4 x 2 threads.
# CHECK: 48 1128
# RUN: not %ember build %S/Inputs/bad-kernel.em --emit ptx -o - 2>&1 | %FileCheck %s --check-prefix=ERR
# ERR: bad-kernel.em:4:12: error: thread_idx_x() can only be used in a @kernel function
# ERR-NOT: Traceback

@kernel
def ids(out: Buffer[Int]) -> None:
    i = global_idx_y() * 12 + global_idx_x()
    out[i] = i


def main() -> None:
    out = Buffer[Int](48)
    ids[(3, 2), (4, 2)](out)
    t = 0
    for i in range(48):
        t += out[i]
    print(len(out), t)
