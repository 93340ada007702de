"""Money and rounding: the one place amounts are rounded (docs/rules/README.md#money).

Every rounding names ROUND_HALF_UP explicitly; nothing here touches floats.
"""
from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_decimal(value: object) -> Decimal:
    """Build a Decimal from a str/int/Decimal; refuse floats, which would carry binary error."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, (bool, float)):
        raise TypeError(f"refusing {type(value).__name__} for money: {value!r}")
    try:
        return Decimal(str(value).strip())
    except InvalidOperation as exc:
        raise ValueError(f"not a number: {value!r}") from exc


def round_half_up(value: Decimal, places: Decimal = CENT) -> Decimal:
    """Round to `places` (default a cent) half-up, the rules' only rounding mode (docs/rules/README.md#money)."""
    return value.quantize(places, rounding=ROUND_HALF_UP)


def sum_cents(value) -> Decimal:
    """A database SUM of amounts as exact cents (ROUND_HALF_UP); no rows (None) is zero.

    SQLite adds decimal columns as floats, so 0.10 + 0.20 can come back as 0.30000000000000004
    (Django hands it over as a Decimal with that noise). Any status decided by comparing a sum
    (paid, open, in credit) compares this, so it is decided to the cent on every database.
    """
    if value is None:
        return ZERO
    if isinstance(value, float):
        value = Decimal(repr(value))
    return round_half_up(Decimal(value))


def cents(value: Decimal) -> int:
    """Exact number of cents in an amount that is already a whole number of cents."""
    return int(value.quantize(CENT) * 100)


def from_cents(n: int) -> Decimal:
    return (Decimal(n) / 100).quantize(CENT)


def apportion(total: Decimal, weights: Iterable[tuple[Hashable, Decimal]]) -> dict[Hashable, Decimal]:
    """Split `total` over weighted keys by the largest-remainder method on cents.

    Parts add up to `total` exactly; ties on the remainder go to the larger weight,
    then to the lower key (docs/rules/README.md#money, apportionment).
    """
    items = list(weights)
    total_cents = cents(total)
    if not items:
        return {}
    # Exact rationals: a Decimal quotient rounded to 28 digits could break (or invent) remainder ties.
    fractions = [(key, Fraction(weight)) for key, weight in items]
    weight_sum = sum((w for _, w in fractions), Fraction(0))
    if weight_sum == 0:
        if total_cents:
            raise ValueError("cannot apportion a non-zero total over zero weight")
        return {k: ZERO for k, _ in items}
    floors: dict[Hashable, int] = {}
    remainders = []
    allotted = 0
    for key, weight in fractions:
        exact = total_cents * weight / weight_sum
        floor = math.floor(exact)
        floors[key] = floor
        allotted += floor
        remainders.append((exact - floor, weight, key))
    left = total_cents - allotted
    remainders.sort(key=lambda r: (-r[0], -r[1], r[2]))
    for _, _, key in remainders[:left]:
        floors[key] += 1
    return {k: from_cents(v) for k, v in floors.items()}


def split_halves(amount: Decimal) -> tuple[Decimal, Decimal]:
    """Two installments of an annual amount: first = round_half_up(A/2), second = A - first."""
    first = round_half_up(amount / 2)
    return first, amount - first


def format_cents(n: int) -> str:
    """An amount held as integer cents, as the contract prints money: "1234.50", "-0.05"."""
    sign = "-" if n < 0 else ""
    q, r = divmod(abs(n), 100)
    return f"{sign}{q}.{r:02d}"


def round_half_up_div(numerator: int, denominator: int) -> int:
    """round_half_up(numerator / denominator) on integers (denominator > 0), for the hot loops."""
    if numerator >= 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return -((-2 * numerator + denominator) // (2 * denominator))


class CentApportionment:
    """Largest-remainder apportionment of `total_cents` over integer weights, for streams.

    Built by `plan_apportionment` from one pass over (key, weight) pairs; afterwards it holds
    only the threshold of the ranking, so `cents(key, weight)` answers for any parcel in O(1)
    time and the plan needs O(1) memory however many parcels there are.

    Every part gets floor(total × w / W) cents; the `left` cents that remain go one each to the
    parts ranked first by (larger remainder, larger weight, lower key) — docs/rules/README.md#money,
    apportionment. The remainder depends on the weight only, so the ranking is a threshold:
    a part gets the extra cent when its (remainder, weight, key) ranks at or before the
    threshold's. Same result as `apportion`, without holding a million parts.
    """

    __slots__ = ("total_cents", "weight_sum", "count", "extra_cents", "_threshold")

    def __init__(self, total_cents: int, weight_sum: int, count: int, extra_cents: int, threshold) -> None:
        self.total_cents = total_cents
        self.weight_sum = weight_sum
        self.count = count
        self.extra_cents = extra_cents
        # None (no extra cent) or (remainder, weight, key); key None = the whole weight group.
        self._threshold = threshold

    def cents(self, key, weight: int) -> int:
        """This part's cents (floor plus the extra cent when it ranks within the threshold)."""
        if self.weight_sum == 0:
            return 0
        q, r = divmod(self.total_cents * weight, self.weight_sum)
        t = self._threshold
        if t is not None and (r > t[0] or (r == t[0] and (
                weight > t[1] or (weight == t[1] and (t[2] is None or key <= t[2]))))):
            q += 1
        return q

    def exact(self, weight: int) -> tuple[int, int]:
        """(floor cents, remainder numerator over weight_sum) of a part: its exact share."""
        if self.weight_sum == 0:
            return 0, 0
        return divmod(self.total_cents * weight, self.weight_sum)


def plan_apportionment(total_cents: int, weights: Iterable[tuple[Hashable, object]],
                       scale: int | None = None) -> CentApportionment:
    """One pass over (key, weight ≥ 0) pairs → a `CentApportionment` (largest remainder on cents).

    Weights are integers, or Decimals turned into integers × `scale` when `scale` is given (a
    weight with more decimals than the scale allows is refused, never truncated). Keys must be
    mutually comparable (all str or all int) for the tie-break on the lower key. Transient
    memory: one machine word per part plus a reference to each key, released on return.
    """
    from array import array
    from collections import Counter

    units = array("q")
    keys: list = []
    add_unit, add_key = units.append, keys.append
    for key, weight in weights:
        if scale is not None:
            scaled = weight * scale
            weight = int(scaled)
            if weight != scaled:
                raise ValueError(f"weight of {key!r} has more decimals than 1/{scale}")
        if weight < 0:
            raise ValueError(f"negative weight for {key!r}")
        add_unit(weight)
        add_key(key)
    count = len(units)
    weight_sum = sum(units)
    if weight_sum == 0:
        if total_cents:
            raise ValueError("cannot apportion a non-zero total over zero weight")
        return CentApportionment(total_cents, 0, count, 0, None)
    if total_cents < 0:
        raise ValueError("cannot apportion a negative total")
    # Parts of equal weight have equal remainders: rank the distinct weights, not the parts.
    groups = list(Counter(units).items())
    # Rather than sorting every group by remainder, count parts per remainder bucket (a coarse
    # slice of [0, 1)), find the bucket where the extra cents run out, and sort only that one.
    buckets = min(1 << 16, len(groups))
    per_bucket = [0] * buckets
    bucket_of = array("l")
    floors = 0
    for weight, n in groups:
        q, r = divmod(total_cents * weight, weight_sum)
        floors += q * n
        b = r * buckets // weight_sum
        per_bucket[b] += n
        bucket_of.append(b)
    left = total_cents - floors
    if left == 0:
        return CentApportionment(total_cents, weight_sum, count, 0, None)
    before = 0
    for b in range(buckets - 1, -1, -1):
        if before + per_bucket[b] >= left:
            break
        before += per_bucket[b]
    boundary = [groups[i] for i, bi in enumerate(bucket_of) if bi == b]
    boundary.sort(key=lambda wn: (-(total_cents * wn[0] % weight_sum), -wn[0]))
    for weight, n in boundary:  # noqa: B007 - the group where the loop stops is the threshold
        if before + n >= left:
            break
        before += n
    taken = left - before  # how many of this weight group get the extra cent, lowest keys first
    key_limit = None
    if taken < n:
        group_keys = sorted(k for k, w in zip(keys, units, strict=True) if w == weight)
        key_limit = group_keys[taken - 1]
    remainder = total_cents * weight % weight_sum
    return CentApportionment(total_cents, weight_sum, count, left, (remainder, weight, key_limit))


# A number as a person in Puerto Rico types it: "1234.56", "1,234.56", "$1,234.56", "-20". Commas only
# group thousands (groups of three); "500,00" could be Spain's 500.00 or a typo of 50,000, so it is refused.
_PLAIN = re.compile(r"^[+-]?\d+(\.\d+)?$|^[+-]?\.\d+$")
_GROUPED = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")


class AmbiguousNumber(ValueError):
    """A comma that is not a thousands separator ("500,00", "1.234,56"): refused, never guessed."""


def parse_amount(text: object) -> Decimal:
    """Decimal from what was typed: "1,234.56" or "1234.56" (a leading "$" and spaces are fine).

    Raises AmbiguousNumber for a comma that does not group thousands, ValueError for anything else
    that is not a number ("abc"). Never rounds: the field's decimal places decide what is accepted.
    """
    if isinstance(text, Decimal):
        return text
    if isinstance(text, (bool, float)):
        raise TypeError(f"refusing {type(text).__name__} for money: {text!r}")
    s = str(text).strip().replace(" ", "").replace("\u00a0", "")
    if s[:1] in "+-" and s[1:2] == "$":
        s = s[0] + s[2:]
    elif s.startswith("$"):
        s = s[1:]
    if _PLAIN.match(s):
        return Decimal(s)
    if _GROUPED.match(s):
        return Decimal(s.replace(",", ""))
    if "," in s and re.fullmatch(r"[+-]?[\d.,]+", s):
        raise AmbiguousNumber(s)
    raise ValueError(f"not a number: {text!r}")
