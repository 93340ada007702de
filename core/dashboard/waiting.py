"""What waits on each role (issue #17): the requests and records only that role can move on,
counted for the home page ("Espera por usted").

Apps declare sources in their `dashboard.py` (found by the registry's autodiscover):

    from core.dashboard.waiting import Waiting, register_waiting

    @register_waiting
    def pending_adjustments(user):
        yield Waiting(key="adjustment", action=roles.APPROVE, label=_("Ajustes por aprobar"), count=3, url=...)

Each line names the role-matrix action it waits for (core.roles), so a user sees exactly the lines
`roles.can(user, action)` allows: the approver the requests to approve, the cashier the cash window,
the legal reviewer the lien conflicts. The user is passed so a source can leave out what the user
may not decide (four eyes: one's own requests).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core import roles


@dataclass(frozen=True)
class Waiting:
    key: str          # stable slug, also the element id on the home page ("waiting-line_change")
    action: str       # core.roles action the line waits for
    label: str
    count: int
    url: str = ""
    rule: str = ""    # rule (docs/rules/) the work applies, when there is one
    order: int = 50


Source = Callable[[object], Iterable[Waiting]]
_sources: dict[str, Source] = {}


def register_waiting(fn: Source) -> Source:
    _sources[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return fn


def waiting_for(user) -> list[Waiting]:
    """The lines that wait on `user`'s roles, zero counts included (an approver with nothing to
    approve is told so, not shown an empty page), most pressing source order first."""
    from core.dashboard.registry import autodiscover

    autodiscover()
    rows = [w for fn in _sources.values() for w in fn(user) if roles.can(user, w.action)]
    return sorted(rows, key=lambda w: (w.order, w.key))
