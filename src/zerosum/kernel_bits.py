"""Bit instructions the compiled kernels share: counting a word's set bits, finding its
lowest and its highest, each one machine instruction (LLVM's, through numba intrinsics;
numba has none of its own).

Only kernel modules import this module (it imports numba): :mod:`zerosum.kernels` loads
them when a kernel is first used. Each instruction takes a 64-bit word, signed or
unsigned, and gives a signed number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

__all__ = ["highest", "lowest", "popcount"]


def _word(word: Any) -> bool:
    """Whether numba's type ``word`` is a 64-bit integer (the instructions' argument)."""
    return isinstance(word, types.Integer) and getattr(word, "bitwidth", 0) == 64


@intrinsic
def _popcount_instruction(typing_context: object, word: Any) -> tuple[object, object] | None:
    """The set bits of a word."""
    if not _word(word):
        return None

    def generate(context: object, builder: Any, signature: object, args: Any) -> object:
        return builder.ctpop(args[0])

    return types.int64(word), generate


@intrinsic
def _lowest_instruction(typing_context: object, word: Any) -> tuple[object, object] | None:
    """The lowest set bit's place of a non-zero word."""
    if not _word(word):
        return None

    def generate(context: object, builder: Any, signature: object, args: Any) -> object:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(word), generate


@intrinsic
def _highest_instruction(typing_context: object, word: Any) -> tuple[object, object] | None:
    """The highest set bit's place of a non-zero word."""
    if not _word(word):
        return None

    def generate(context: object, builder: Any, signature: object, args: Any) -> object:
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return types.int64(word), generate


# the instructions as kernels call them (numba looks them up by name)
popcount = cast("Callable[[Any], int]", _popcount_instruction)
"""``popcount(word)``: the set bits of a 64-bit word."""
lowest = cast("Callable[[Any], int]", _lowest_instruction)
"""``lowest(word)``: the place of the lowest set bit of a non-zero 64-bit word."""
highest = cast("Callable[[Any], int]", _highest_instruction)
"""``highest(word)``: the place of the highest set bit of a non-zero 64-bit word."""
