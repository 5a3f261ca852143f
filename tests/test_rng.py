"""SplitMix64, uniform integers by rejection and Fisher-Yates (core/rng.py).

The pinned outputs for seed 0 and seed 1234567 are those of the reference C
implementation (Vigna's splitmix64.c), not merely what this code printed once.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.rng import MASK64, SplitMix64
from helpers import FAST

REFERENCE = {
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F],
    1234567: [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ],
}

PINNED = {
    1: [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E],
    42: [0xBDD732262FEB6E95, 0x28EFE333B266F103, 0x47526757130F9F52],
    2**31 - 1: [0x61FA36A6261A4BE7, 0x097A775B9E76A5C7, 0x6536E03C7465DF5E],
}


@pytest.mark.parametrize("seed", sorted(REFERENCE))
def test_reference_outputs(seed: int) -> None:
    rng = SplitMix64(seed)
    assert [rng.next64() for _ in REFERENCE[seed]] == REFERENCE[seed]


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_pinned_outputs(seed: int) -> None:
    rng = SplitMix64(seed)
    assert [rng.next64() for _ in range(3)] == PINNED[seed]


def test_seed_is_taken_mod_2_to_the_64() -> None:
    for a, b in [(-1, MASK64), (2**64, 0), (2**64 + 5, 5)]:
        x, y = SplitMix64(a), SplitMix64(b)
        assert [x.next64() for _ in range(3)] == [y.next64() for _ in range(3)]


@given(st.integers(0, MASK64))
@FAST
def test_outputs_are_64_bit(seed: int) -> None:
    rng = SplitMix64(seed)
    for _ in range(5):
        assert 0 <= rng.next64() <= MASK64


@given(st.integers(0, MASK64), st.integers(1, 2**70))
@FAST
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = SplitMix64(seed)
    for _ in range(5):
        assert 0 <= rng.below(n) < n


def test_below_one_is_always_zero() -> None:
    rng = SplitMix64(3)
    assert {rng.below(1) for _ in range(20)} == {0}


@pytest.mark.parametrize("n", [0, -1, -52])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match=repr(n)):
        SplitMix64(1).below(n)


def test_below_rejects_rather_than_bias() -> None:
    # With n = 2**63 + 1, draws at or above 2**63 + 1 must be thrown away.
    n = 2**63 + 1
    limit = 2**64 - 2**64 % n
    for seed in range(50):
        twin = SplitMix64(seed)
        draws: list[int] = []
        while not draws or draws[-1] >= limit:
            draws.append(twin.next64())
        rng = SplitMix64(seed)
        assert rng.below(n) == draws[-1] % n
        assert rng.state == twin.state  # it consumed exactly the rejected draws and one more


def test_below_is_the_draw_mod_n_when_nothing_is_rejected() -> None:
    twin, rng = SplitMix64(9), SplitMix64(9)
    for n in (2, 3, 52, 104):
        assert rng.below(n) == twin.next64() % n


def test_below_is_roughly_uniform() -> None:
    rng = SplitMix64(2024)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(900 < counts[k] < 1100 for k in range(6))


def test_shuffle_is_fisher_yates_from_the_top() -> None:
    items = list(range(20))
    SplitMix64(77).shuffle(items)
    expected = list(range(20))
    rng = SplitMix64(77)
    for i in range(19, 0, -1):
        j = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


def test_shuffle_pinned() -> None:
    items = list(range(10))
    SplitMix64(1).shuffle(items)
    assert items == [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]


def test_shuffle_of_zero_or_one_item_draws_nothing() -> None:
    for items in ([], ["x"]):
        rng = SplitMix64(5)
        rng.shuffle(items)
        assert rng.state == 5
    one = ["x"]
    SplitMix64(5).shuffle(one)
    assert one == ["x"]


@given(st.integers(0, MASK64), st.lists(st.integers(0, 103), max_size=104))
@FAST
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    SplitMix64(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_same_seed_same_shuffle_other_seed_other_shuffle() -> None:
    a, b, c = list(range(52)), list(range(52)), list(range(52))
    SplitMix64(10).shuffle(a)
    SplitMix64(10).shuffle(b)
    SplitMix64(11).shuffle(c)
    assert a == b
    assert a != c
