"""Ember's operations on Python values, straight from docs/language.md (no compiler code).

Integers are Python ints kept in their type's range; Float64 values are Python floats;
Float32 values are Python floats that are exactly representable in binary32 (every
Float32 operation is computed in double precision and rounded once, which is exact for
+ - * / sqrt because binary64 has more than 2*24+2 bits); Bool values are Python bools.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable

INF = math.inf
NAN = math.nan

#: Trap codes and their messages (the same table as ember_trap in the C runtime).
TRAP_MESSAGES = {
    1: "division by zero",
    2: "integer overflow in division",
    3: "assertion failed",
    4: "negative exponent in integer power",
    5: "range() step is zero",
    6: "buffer index out of range",
    7: "invalid buffer size",
    8: "out of memory",
    9: "invalid launch configuration",
}
TRAP_DIV_ZERO, TRAP_DIV_OVERFLOW, TRAP_ASSERT, TRAP_NEG_EXPONENT = 1, 2, 3, 4
TRAP_RANGE_STEP, TRAP_INDEX, TRAP_BUFFER_SIZE = 5, 6, 7
TRAP_LAUNCH = 9
MAX_BUFFER_ELEMENTS = 1 << 32
#: CUDA's launch limits (docs/offload.md): grid x/y/z, block x/y/z, threads per block.
GRID_LIMITS = ((1 << 31) - 1, 65535, 65535)
BLOCK_LIMITS = (1024, 1024, 64)
MAX_THREADS_PER_BLOCK = 1024


def valid_launch(grid: list[int], block: list[int]) -> bool:
    """Is `kernel[grid, block]` a launch CUDA accepts? (Otherwise it traps, code 9.)"""
    if any(d < 1 for d in (*grid, *block)):
        return False
    if any(d > lim for d, lim in zip(grid, GRID_LIMITS, strict=True)):
        return False
    if any(d > lim for d, lim in zip(block, BLOCK_LIMITS, strict=True)):
        return False
    return block[0] * block[1] * block[2] <= MAX_THREADS_PER_BLOCK


class Trap(Exception):
    """A runtime trap: the program stops with exit status 3."""

    def __init__(self, code: int) -> None:
        super().__init__(TRAP_MESSAGES.get(code, "unknown trap"))
        self.code = code


# --------------------------------------------------------------------------- integers


def wrapper(width: int, signed: bool) -> Callable[[int], int]:
    """Reduce a mathematical integer modulo 2**width into the type's range."""
    mask = (1 << width) - 1
    if signed:
        half = 1 << (width - 1)
        return lambda v: ((v + half) & mask) - half
    return lambda v: v & mask


def int_floordiv(a: int, b: int, width: int, signed: bool) -> int:
    if b == 0:
        raise Trap(TRAP_DIV_ZERO)
    if signed and b == -1 and a == -(1 << (width - 1)):
        raise Trap(TRAP_DIV_OVERFLOW)
    return a // b  # Python floors; in range for every other case


def int_mod(a: int, b: int) -> int:
    if b == 0:
        raise Trap(TRAP_DIV_ZERO)
    return a % b  # sign of the divisor; INT_MIN % -1 == 0


def int_pow(a: int, e: int, width: int, signed: bool) -> int:
    if e < 0:
        raise Trap(TRAP_NEG_EXPONENT)
    return wrapper(width, signed)(pow(a, e, 1 << width))


def shift_left(a: int, n: int, width: int, signed: bool) -> int:
    if 0 <= n < width:
        return wrapper(width, signed)(a << n)
    return 0


def shift_right(a: int, n: int, width: int, signed: bool) -> int:
    if 0 <= n < width:
        return a >> n
    return (a >> (width - 1)) if signed else 0  # every bit shifted out: the sign fill


# --------------------------------------------------------------------------- floats


def to_f32(x: float) -> float:
    """Round a double to the nearest binary32 value (ties to even, overflow to ±inf)."""
    return float(ctypes.c_float(x).value)


def f_div(a: float, b: float) -> float:
    """IEEE division: x/0 is ±inf, 0/0 and nan operands are nan."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return NAN
        neg = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
        return -INF if neg else INF
    return a / b


def f_fmod(a: float, b: float) -> float:
    """C fmod: exact; nan for an infinite dividend, a zero divisor or a nan operand."""
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0.0:
        return NAN
    if math.isinf(b):
        return a
    return math.fmod(a, b)


def f_floor(x: float) -> float:
    if x == 0.0 or not math.isfinite(x):
        return x
    return float(math.floor(x))


def f_sqrt(x: float) -> float:
    if math.isnan(x):
        return x
    if x < 0.0:
        return NAN
    return math.sqrt(x)


def float_mod(a: float, b: float, rnd: Callable[[float], float]) -> float:
    """Python's float `%` (floatobject.c), total: a zero divisor gives nan."""
    mod = f_fmod(a, b)
    if mod != 0.0:  # true for nan as well
        if (b < 0.0) != (mod < 0.0):
            mod = rnd(mod + b)
        return mod
    return math.copysign(0.0, b)


def float_floordiv(a: float, b: float, rnd: Callable[[float], float]) -> float:
    """Python's float `//` (floatobject.c `_float_div_mod`), total: a zero divisor gives nan."""
    mod = f_fmod(a, b)
    div = rnd(f_div(rnd(a - mod), b))
    if mod != 0.0 and (b < 0.0) != (mod < 0.0):
        div = rnd(div - 1.0)
    if div != 0.0:
        floordiv = f_floor(div)
        if rnd(div - floordiv) > 0.5:
            floordiv = rnd(floordiv + 1.0)
        return floordiv
    return math.copysign(0.0, rnd(f_div(a, b)))


def int_to_f32(value: int) -> float:
    """An integer rounded once (to nearest, ties to even) to binary32."""
    if value == 0:
        return 0.0
    mag = abs(value)
    excess = mag.bit_length() - 24
    if excess > 0:
        q, r = divmod(mag, 1 << excess)
        half = 1 << (excess - 1)
        if r > half or (r == half and q & 1):
            q += 1
        mag = q << excess
    result = to_f32(float(mag))
    return -result if value < 0 else result


def float_to_int(x: float, width: int, signed: bool) -> int:
    """Truncate toward zero; saturate at the type's bounds; nan -> 0."""
    if math.isnan(x):
        return 0
    if signed:
        lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
        if x >= hi + 1:
            return hi
        if x < lo:
            return lo
        return int(x)
    hi = (1 << width) - 1
    if x >= hi + 1:
        return hi
    if x <= -1.0:
        return 0
    return int(x)


# --------------------------------------------------------------------------- printing


def format_float(x: float, single: bool = False) -> str:
    """The text `print` writes for a float (docs/language.md, "print")."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = _shortest(x, single)
    mantissa, _, exp_text = text.partition("e")
    neg = mantissa.startswith("-")
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    exp10 = int(exp_text)
    decpt = exp10 + 1
    n = len(digits)
    if -4 < decpt <= 16:
        if decpt <= 0:
            body = "0." + "0" * (-decpt) + digits
        elif decpt >= n:
            body = digits + "0" * (decpt - n) + ".0"
        else:
            body = digits[:decpt] + "." + digits[decpt:]
    else:
        body = digits[0] + ("." + digits[1:] if n > 1 else "") + f"e{'-' if exp10 < 0 else '+'}{abs(exp10):02d}"
    return ("-" if neg else "") + body


def _shortest(x: float, single: bool) -> str:
    """The shortest `d.ddde±XX` that reads back as `x`; among equally short ones the nearest.

    For each precision p the correctly rounded rendering is tried, then its neighbour
    one unit in the last digit away (at a power of two the rounding interval is wider
    above the value than below, so the neighbour may read back when the nearest does not).
    """

    def reads_back(t: str) -> bool:
        back = float(t)
        return to_f32(back) == x if single else back == x

    text = ""
    for p in range(1, 18):
        text = f"{x:.{p - 1}e}"
        if reads_back(text):
            return text
        mantissa, _, exp_text = text.partition("e")
        sign = "-" if mantissa.startswith("-") else ""
        digits = int(mantissa.lstrip("-").replace(".", ""))
        for delta in (1, -1):
            d, e = digits + delta, int(exp_text)
            if d == 10**p:
                d, e = 10 ** (p - 1), e + 1
            elif d < 10 ** (p - 1):
                d, e = 10**p - 1, e - 1
            ds = str(d)
            cand = f"{sign}{ds[0]}{'.' + ds[1:] if p > 1 else ''}e{'-' if e < 0 else '+'}{abs(e):02d}"
            if reads_back(cand):
                return cand
    return text


def format_value(v: object, is_float32: bool = False) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, float):
        return format_float(v, is_float32)
    return str(v)
