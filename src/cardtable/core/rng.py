"""The random numbers behind numbered deals, written down so anyone can reproduce them.

Python's :mod:`random` may change its sequences between versions, so deals use
this small generator instead. The algorithm, which ``docs/dealing.md`` states in
full, is:

* **SplitMix64** (Steele, Lea and Flood 2014): the state is a 64-bit integer set to
  the seed; each step adds ``0x9E3779B97F4A7C15`` to the state (mod 2^64) and mixes
  it with two multiply-xorshift rounds into a 64-bit output.
* **Uniform integers** below ``n`` by rejection: draw ``x``; if
  ``x >= 2^64 - (2^64 mod n)`` draw again; the result is ``x mod n``. No bias.
* **Fisher-Yates**: for ``i`` from ``len - 1`` down to ``1``, swap item ``i`` with
  item ``below(i + 1)``.
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15


class SplitMix64:
    """A 64-bit SplitMix generator: tiny, fast, and the same on every platform."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n!r}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place with Fisher-Yates, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
