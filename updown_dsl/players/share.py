"""A kept score sheet as a short URL-safe string, and back: to share a game in a message or a link.

The string is ``ud1.`` and the sheet's payload, compressed (zlib) and written in the URL-safe
base64 alphabet without padding. The payload holds what the table said and nothing the rules
work out: the variant as the record names it, the players, the first dealer, the ``date`` and
``event`` lines, and per deal the trump given, each seat's bid (or call) and tricks, one
character each; the table's events (``T<deal> late Gleb``, ...); then the corrections. Read back through a :class:`~updown_dsl.players.keeper.Keeper`,
the sheet is scored again by the variant's rules, so its record is the one it was made from,
line for line (a 24-deal 4-player sheet takes about 250 characters).
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Callable

from ..actions import Call
from ..cards import Suit
from ..i18n import tr
from ..lang.variant import Variant
from ..records.model import Event, Header
from ..records.tableevents import LineError, read_table_line, table_line
from ..records.tablelines import Correction, KeptDeal, with_table

if TYPE_CHECKING:  # (the keeper is imported to pack or unpack a sheet: `updown check` asks only looks_shared)
    from .keeper import Keeper

PREFIX = "ud1."
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_TRUMPS: dict[Suit | None, str] = {None: "N", **{s: s.value for s in Suit}}
_SUITS = {v: k for k, v in _TRUMPS.items()}
#: The most characters a string may have (a sheet of hundreds of deals still fits).
MAX_LENGTH = 20_000


class ShareError(ValueError):
    """A string that is not a shared sheet, or one whose sheet breaks the rules."""


def looks_shared(text: str) -> bool:
    """``text`` is written as a shared sheet is (whether it reads is another matter)."""
    return text.startswith(PREFIX) and len(text) > len(PREFIX)


def _num(n: int | None) -> str:
    if n is None:
        return "-"
    if not 0 <= n < len(_DIGITS):
        raise ValueError(f"{n} cannot be written in one character")
    return _DIGITS[n]


def _read_num(c: str) -> int | None:
    if c == "-":
        return None
    k = _DIGITS.find(c)
    if k < 0:
        raise ShareError(tr("the shared sheet is damaged (a number {c!r})", c=c))
    return k


def _deal_code(d: KeptDeal, seats: int) -> str:
    trump = _TRUMPS[d.trump] if d.trump_given else "."
    bids = "".join(_num(b) for b in (d.bids or (None,) * seats))
    took = "".join(_num(t) for t in d.took) if d.took is not None else "-" * seats
    code = trump + bids + took
    if d.calls:
        code += ":" + "".join("--" if c is None else _num(c.tricks) + _TRUMPS[c.suit] for c in d.calls)
    return code


def _read_deal(code: str, seats: int) -> KeptDeal:
    main, _, calls_text = code.partition(":")
    if len(main) != 1 + 2 * seats or (calls_text and len(calls_text) != 2 * seats):
        raise ShareError(tr("the shared sheet is damaged (a deal {code!r})", code=code))
    trump_given = main[0] != "."
    if trump_given and main[0] not in _SUITS:
        raise ShareError(tr("the shared sheet is damaged (a trump {c!r})", c=main[0]))
    bids = tuple(_read_num(c) for c in main[1:1 + seats])
    took_raw = [_read_num(c) for c in main[1 + seats:]]
    took = tuple(t or 0 for t in took_raw) if all(t is not None for t in took_raw) else None
    calls: tuple[Call | None, ...] = ()
    if calls_text:
        out: list[Call | None] = []
        for k in range(seats):
            pair = calls_text[2 * k:2 * k + 2]
            if pair == "--":
                out.append(None)
            elif pair[1] in _SUITS:
                tricks = _read_num(pair[0]) or 0
                out.append(Call(tricks, _SUITS[pair[1]] if tricks else None))
            else:
                raise ShareError(tr("the shared sheet is damaged (a call {code!r})", code=pair))
        calls = tuple(out)
    return KeptDeal(_SUITS.get(main[0]) if trump_given else None, trump_given, calls, bids, took)


def share_string(keeper: Keeper) -> str:
    """The sheet of ``keeper`` as a URL-safe string (see the module's docstring)."""
    import base64

    from .keeper import kept_deals

    n = keeper.players
    lines = ["V" + (keeper.label or keeper.variant.name), "P" + " ".join(keeper.names), f"F{keeper.first_dealer}"]
    lines += [f"H{h.key}: {h.value}" for h in keeper.headers]
    deals = kept_deals(keeper)
    lines += ["D" + _deal_code(d, n) for d in deals]
    lines += [f"T{k} {table_line(e, keeper.names)}" for k, d in enumerate(deals, 1) for e in d.table]
    lines += [f"C{c.deal} {c.seat} {c.field} {'-' if c.old is None else c.old} {c.new} {c.at} {c.when or '-'}"
              for c in keeper.corrections]
    packed = zlib.compress("\n".join(lines).encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def read_share(text: str, load: Callable[[str], Variant]) -> Keeper:
    """The keeper of a shared sheet (``load`` loads the variant it names).

    :raises ShareError: when the string is damaged, or its sheet breaks the rules.
    """
    import base64
    import binascii

    from .keeper import Keeper, KeepError, restored

    text = text.strip()
    if not looks_shared(text) or len(text) > MAX_LENGTH:
        raise ShareError(tr("not a shared sheet: it starts with {prefix}", prefix=PREFIX))
    body = text[len(PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        plain = zlib.decompressobj().decompress(packed, 1 << 20).decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise ShareError(tr("the shared sheet is damaged: it cannot be unpacked (was it cut short?)")) from None
    fields: dict[str, list[str]] = {}
    for line in plain.split("\n"):
        if line:
            fields.setdefault(line[0], []).append(line[1:])
    try:
        label, names = fields["V"][0], tuple(fields["P"][0].split())
        first = int(fields["F"][0])
    except (KeyError, IndexError, ValueError):
        raise ShareError(tr("the shared sheet is damaged: it lacks the variant or the players")) from None
    variant = load(label)
    deals = [_read_deal(code, len(names)) for code in fields.get("D", [])]
    if fields.get("T"):
        deals = with_table(deals, _table_lines(fields["T"], names), names)
    headers = [Header(h.split(": ", 1)[0], h.split(": ", 1)[1]) for h in fields.get("H", []) if ": " in h]
    try:
        keeper = Keeper(variant, names, first_dealer=first, label=label)
        return restored(keeper, deals, [_correction(c) for c in fields.get("C", [])], headers)
    except (KeepError, ValueError) as exc:
        raise ShareError(tr("the shared sheet breaks the rules: {message}", message=exc)) from None


def _correction(text: str) -> Correction:
    words = text.split()
    if len(words) != 7:
        raise ShareError(tr("the shared sheet is damaged (a correction {text!r})", text=text))
    deal, seat, field, old, new, at, when = words
    try:
        return Correction(int(deal), int(seat), field, None if old == "-" else int(old), int(new), int(at),
                          "" if when == "-" else when)
    except ValueError:
        raise ShareError(tr("the shared sheet is damaged (a correction {text!r})", text=text)) from None



def _table_lines(texts: list[str], names: tuple[str, ...]) -> dict[int, list[Event]]:
    """The table's lines of a shared sheet (``T<deal> <line>``), by deal number."""
    from ..records.model import seat_of

    def seat(words: list[str], k: int) -> int:
        found = seat_of(names, words[k])
        if found is None:
            raise LineError("T005", words[k], k)
        return found

    out: dict[int, list[Event]] = {}
    for text in texts:
        number, _, line = text.partition(" ")
        try:
            out.setdefault(int(number), []).append(read_table_line(seat, line.split(), 0, 1, None, 0))
        except (ValueError, IndexError, LineError):
            raise ShareError(tr("the shared sheet is damaged (a line of the table {text!r})", text=text)) from None
    return out
