"""Exact values of literals: binary32 rounding and correctly rounded integer-to-float conversion."""

from __future__ import annotations

import ctypes
import math
import struct

from compiler.frontend.types import FLOAT32, FloatType


def round_f32(value: float) -> float:
    """`value` rounded to the nearest binary32 value (ties to even; overflow gives ±inf)."""
    return float(ctypes.c_float(value).value)


def int_to_float(value: int, ftype: FloatType) -> float:
    """The integer `value` rounded once (to nearest, ties to even) to `ftype`."""
    if ftype != FLOAT32:
        return float(value)  # Python's int -> float conversion is correctly rounded
    if value == 0:
        return 0.0
    sign = -1.0 if value < 0 else 1.0
    mag = abs(value)
    excess = mag.bit_length() - 24
    if excess > 0:
        q, r = divmod(mag, 1 << excess)
        half = 1 << (excess - 1)
        if r > half or (r == half and q & 1):
            q += 1
        mag = q << excess
    return round_f32(sign * float(mag))


def float_bits(value: float, ftype: FloatType) -> int:
    """The IEEE bit pattern of `value` in `ftype` (value must already be exact in `ftype`)."""
    if ftype == FLOAT32:
        return int(struct.unpack("<I", struct.pack("<f", value))[0]) if math.isfinite(value) else _f32_special(value)
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def _f32_special(value: float) -> int:
    if math.isnan(value):
        return 0x7FC00000
    return 0x7F800000 if value > 0 else 0xFF800000
