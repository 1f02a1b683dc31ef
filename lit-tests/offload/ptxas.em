# REQUIRES: ptxas
# RUN: %ember build %s --emit ptx -o %t.sm80.ptx
# RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
# RUN: %ember build %s --emit ptx --gpu-arch sm_90 --offload-flow per-kernel -o %t.sm90.ptx
# RUN: ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
# RUN: %ember build %s -O0 --emit ptx --offload-flow per-kernel -o %t.dir/
# RUN: ptxas -arch=sm_80 %t.dir/k.ptx -o %t.k.cubin
# RUN: ptxas -arch=sm_80 %t.dir/k2.ptx -o %t.k2.cubin
# (--emit ptx links every kernel's PTX module into ONE module; at -O0 both kernels' modules
#  define `helper` and `ember_trap`, so the link renames the second copies. `-o DIR/`
#  writes one module per kernel instead.)

def helper(a: Int, b: Int) -> Int:
    return (a * b) // 7 + a % 5 + 2 ** (b % 4)


@kernel
def k(x: Buffer[Int], f: Buffer[Float32], n: Int) -> None:
    i = global_idx_x() + global_idx_y() * 64
    if i < n:
        x[i] = helper(i, thread_idx_z() + 3)
        f[i] = Float32(i) % Float32(3.5) + sqrt(Float32(i))


@kernel
def k2(x: Buffer[Int], n: Int) -> None:
    i = global_idx_x()
    if i < n:
        x[i] = helper(n, i)
