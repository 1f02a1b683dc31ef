"""Ember's static types: integers, floats, Bool, buffers and function types."""

from __future__ import annotations

from dataclasses import dataclass


class Type:
    """Base class of every Ember type; types are immutable and compare by value."""

    def is_scalar(self) -> bool:
        return isinstance(self, IntType | FloatType | BoolType)

    def is_numeric(self) -> bool:
        return isinstance(self, IntType | FloatType)


@dataclass(frozen=True)
class IntType(Type):
    """A fixed-width two's complement integer; arithmetic wraps modulo 2**width."""

    name: str
    width: int
    signed: bool

    @property
    def min(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    def wrap(self, value: int) -> int:
        """`value` reduced modulo 2**width into this type's range."""
        value &= (1 << self.width) - 1
        if self.signed and value >> (self.width - 1):
            value -= 1 << self.width
        return value

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class FloatType(Type):
    """An IEEE-754 binary floating-point type (binary64 or binary32)."""

    name: str
    width: int

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class BoolType(Type):
    def __str__(self) -> str:
        return "Bool"


@dataclass(frozen=True)
class NoneType(Type):
    """The result type of a function that returns no value."""

    def __str__(self) -> str:
        return "None"


@dataclass(frozen=True)
class BufferType(Type):
    """`Buffer[T]`: a reference to a fixed-length, zero-initialised, heap-allocated array."""

    elem: Type

    def __str__(self) -> str:
        return f"Buffer[{self.elem}]"


@dataclass(frozen=True)
class FuncType(Type):
    """`Callable[[P1, ...], R]`: a function value."""

    params: tuple[Type, ...]
    result: Type

    def __str__(self) -> str:
        return f"Callable[[{', '.join(map(str, self.params))}], {self.result}]"


@dataclass(frozen=True)
class ErrorType(Type):
    """The type of an expression that already produced a diagnostic (suppresses follow-ups)."""

    def __str__(self) -> str:
        return "<error>"


INT = IntType("Int", 64, True)
INT32 = IntType("Int32", 32, True)
INT8 = IntType("Int8", 8, True)
UINT64 = IntType("UInt64", 64, False)
FLOAT64 = FloatType("Float64", 64)
FLOAT32 = FloatType("Float32", 32)
BOOL = BoolType()
NONE = NoneType()
ERROR = ErrorType()

#: The scalar types by their source name.
SCALAR_TYPES: dict[str, Type] = {
    t.name: t for t in (INT, INT32, INT8, UINT64, FLOAT64, FLOAT32)
}
SCALAR_TYPES["Bool"] = BOOL

INT_TYPES: tuple[IntType, ...] = (INT, INT32, INT8, UINT64)
FLOAT_TYPES: tuple[FloatType, ...] = (FLOAT64, FLOAT32)
