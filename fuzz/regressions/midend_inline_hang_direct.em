# The same -O2 inliner blow-up through direct recursion (an SCC of @export functions with
# loops), found by the fuzzer's ember strategy. FIXED with midend_inline_hang.em.
g0: Int = 167


@export
def f0(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 0
    acc: Int = x
    j: Int = 0
    while j < 8:
        acc = acc + 1
        j = j + 1
    acc = acc + Int(Int8(acc) + Int8(21))
    acc = acc * f5(707998967, d - 1)
    acc = acc * f1((-1), d - 1)
    acc = acc * f2(59, d - 1)
    return acc


@export
@noinline
def f1(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 180
    acc: Int = x
    for i in range(3):
        acc = acc >> 25
        acc = acc ^ d
        acc = acc + i
        acc = acc & x
        acc = acc * i
        acc = acc | 928
        acc = acc + 1
    acc = acc ^ Int(Float32(acc & 4095) * Float32(69.5))
    acc = acc + f5(acc, d - 1)
    acc = acc + f8(24180, d - 1)
    acc = acc * f2(12, d - 1)
    return acc


@export
def f2(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 0
    global g0
    acc: Int = x
    j: Int = 0
    while j < 1:
        acc = acc >> 17
        acc = acc + 1
        j = j + 1
    acc = acc + Int(Float64(acc & 65535) * 80.25)
    g0 = g0 + acc
    g0 = acc
    g0 = g0 + acc
    acc = acc ^ f0(8511, d - 1)
    acc = acc + f3(69024, d - 1)
    return acc


@export
@noinline
def f3(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 162
    global g0
    acc: Int = x
    for i in range(8):
        acc = Int(UInt64(acc) // 4636408)
        acc = acc ^ x
        acc = Int(UInt64(acc) // UInt64(d | 1))
        acc = acc ^ 389
        acc = acc // 47
        acc = acc - 46
        acc = acc + 1
    g0 = acc
    g0 = g0 + acc
    g0 = g0 + acc
    acc = acc + f1((-9115), d - 1)
    return acc


def f4(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 208
    global g0
    acc: Int = x
    for i in range(3):
        acc = acc - x
        acc = Int(UInt64(acc) >> 32)
        acc = Int(UInt64(acc) // UInt64(x | 1))
        acc = acc + 1
    acc = acc ^ g0
    g0 = g0 + acc
    acc = acc * f0(acc, d - 1)
    acc = acc + f2(acc, d - 1)
    acc = acc * f0(35184372088833, d - 1)
    return acc


def f5(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 8
    global g0
    acc: Int = x
    for i in range(1):
        acc = acc // 9223372036854775806
        acc = acc | d
        acc = Int(max(UInt64(acc), 58))
        acc = acc + 1
    g0 = acc
    g0 = acc
    return acc


@export
def f6(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 234
    global g0
    acc: Int = x
    for i in range(3):
        acc = acc + 1
    g0 = acc
    g0 = g0 + acc
    g0 = g0 + acc
    return acc


def f7(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 255
    acc: Int = x
    acc = acc * d
    return acc


def f8(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 53
    global g0
    acc: Int = x
    for i in range(1):
        acc = Int(UInt64(acc) % UInt64(i | 1))
        acc = acc // 59
        acc = acc << 1
        acc = acc << 40
        acc = min(acc, 15051)
        acc = acc >> 21
        acc = acc + 1
    g0 = acc
    g0 = acc
    g0 = g0 + acc
    acc = acc ^ f1(4063, d - 1)
    acc = acc * f9(22, d - 1)
    acc = acc + f9(53, d - 1)
    return acc


@noinline
def f9(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 89
    global g0
    acc: Int = x
    for i in range(3):
        acc = acc | i
        acc = acc + 1
    g0 = acc
    acc = acc * f0((-2118), d - 1)
    return acc


def main() -> Int:
    chk: Int = 0
    a0: Int = f0((-7431740155), 5)
    print("f0", a0)
    chk = chk * 1000003 ^ a0
    a1: Int = f1((-7431740155), 5)
    print("f1", a1)
    chk = chk * 1000003 ^ a1
    a2: Int = f2((-7431740155), 5)
    print("f2", a2)
    chk = chk * 1000003 ^ a2
    a3: Int = f3((-7431740155), 5)
    print("f3", a3)
    chk = chk * 1000003 ^ a3
    a4: Int = f6((-7431740155), 5)
    print("f6", a4)
    chk = chk * 1000003 ^ a4
    print("g0", g0)
    chk = chk * 1000003 ^ g0
    print("checksum", chk)
    return 0
