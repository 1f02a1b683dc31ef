# GPU kernels (docs/offload.md): saxpy, vector add, a per-block reduction, 2-D matrix
# multiply, integer maths through a device helper the host also calls. `ember run` runs
# the launches on the CPU grid emulator; `ember build --emit ptx` prints their PTX.

def mix(a: Int, b: Int) -> Int:
    """Called from a kernel and from the host: the slicer copies it into the GPU module."""
    return (a * 31 + b) % 1009 + 2 ** (b % 5)


@kernel
def saxpy(a: Float64, x: Buffer[Float64], y: Buffer[Float64], n: Int) -> None:
    i = global_idx_x()
    if i < n:
        y[i] = a * x[i] + y[i]


@kernel
def vadd(a: Buffer[Int32], b: Buffer[Int32], c: Buffer[Int32], n: Int) -> None:
    i = global_idx_x()
    if i < n:
        c[i] = a[i] + b[i]


@kernel
def block_sum(x: Buffer[Float64], out: Buffer[Float64], n: Int) -> None:
    """Thread 0 of each block sums the block's slice (race-free: one writer per element)."""
    if thread_idx_x() == 0:
        s = 0.0
        for j in range(block_dim_x()):
            i = block_idx_x() * block_dim_x() + j
            if i < n:
                s += x[i]
        out[block_idx_x()] = s


@kernel
def matmul(a: Buffer[Float32], b: Buffer[Float32], c: Buffer[Float32], n: Int) -> None:
    row = global_idx_y()
    col = global_idx_x()
    if row < n and col < n:
        acc = Float32(0.0)
        for k in range(n):
            acc += a[row * n + k] * b[k * n + col]
        c[row * n + col] = acc


@kernel
def hash_ints(out: Buffer[Int], flags: Buffer[Bool], n: Int) -> None:
    i = (block_idx_x() * block_dim_y() + thread_idx_y()) * block_dim_x() + thread_idx_x()
    if i < n:
        h = mix(i, i // 3 - 7)
        out[i] = h
        flags[i] = h % 2 == 0


def main() -> Int:
    n = 1000
    x = Buffer[Float64](n)
    y = Buffer[Float64](n)
    for i in range(n):
        x[i] = Float64(i) * 0.5
        y[i] = 1.0
    saxpy[(n + 127) // 128, 128](3.0, x, y, n)
    s = 0.0
    for i in range(n):
        s += y[i]
    print("saxpy", s, y[0], y[999])

    a = Buffer[Int32](n)
    b = Buffer[Int32](n)
    c = Buffer[Int32](n)
    for i in range(n):
        a[i] = Int32(i * 7)
        b[i] = Int32(2147483000 - i)
    vadd[8, 128](a, b, c, n)
    t = 0
    for i in range(n):
        t += Int(c[i])
    print("vadd", t, c[0], c[999])

    blocks = (n + 63) // 64
    partial = Buffer[Float64](blocks)
    block_sum[blocks, 64](x, partial, n)
    print("block_sum", blocks, partial[0], partial[blocks - 1])

    m = 10
    ma = Buffer[Float32](m * m)
    mb = Buffer[Float32](m * m)
    mc = Buffer[Float32](m * m)
    for i in range(m * m):
        ma[i] = Float32(i % 7) * Float32(0.25)
        mb[i] = Float32(i % 5) - Float32(1.5)
    matmul[(2, 3), (8, 4)](ma, mb, mc, m)
    print("matmul", mc[0], mc[11], mc[99])

    hs = Buffer[Int](n)
    even = Buffer[Bool](n)
    hash_ints[4, (16, 16)](hs, even, n)
    evens = 0
    total = 0
    for i in range(n):
        total += hs[i]
        if even[i]:
            evens += 1
    print("hash", total, evens, hs[500], mix(500, 159))
    return 0
