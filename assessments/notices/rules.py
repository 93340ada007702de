"""Pure decisions about notices: numbers, which program a charge belongs to, how it is mailed,
and the hash of the portal activation code. No ORM, no settings."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

NUMBER_PREFIX = "AV"
COUNTER_KEY = "notice:{year}"

# Which statutory program a charge belongs to, read from the facts a receivable carries.
LIEN_KIND_PROGRAM = {"IRRIGATION": "IRR", "LAJAS": "LAJ", "SID": "SID", "TID": "TID"}
SURCHARGE_PROGRAM = {"IRR-9": "IRR", "LAJ-7": "LAJ", "RESOLUTION": "SID"}
PROGRAMS = ("IRR", "LAJ", "SID", "TID", "FRA", "OTHER")
# TID-4: the association notifies by certified mail. A franchise's tariff invoice is an ordinary
# bill (FRA-3, sec. 8.14): regular mail; only FRA-8's notices (sec. 8.19: modification, suspension,
# revocation) go certified with return receipt, and those are not billing notices.
CERTIFIED_PROGRAMS = frozenset({"TID"})
RULE_ID = re.compile(r"\b(IRR|LAJ|FRA|SID|TID|LIEN)-\d+[a-z]?\b")


def notice_number(year: int, seq: int) -> str:
    """`AV-2026-000123`: the prefix, the year of issue and the gapless sequence of that year."""
    return f"{NUMBER_PREFIX}-{year}-{seq:06d}"


def counter_key(year: int) -> str:
    return COUNTER_KEY.format(year=year)


def rule_id(text: str | None) -> str:
    """The first rule ID in `text` ("IRR-6 + ajuste aprobado" → "IRR-6"), or ""."""
    found = RULE_ID.search(text or "")
    return found.group(0) if found else ""


def program_of(*, declared: str = "", is_party_account: bool = False, lien_kind: str = "", surcharge_rule: str = "",
               rules: Iterable[str] = ()) -> str:
    """IRR, LAJ, SID, TID, FRA or OTHER.

    In order: what the breakdown declares; a party's own account is a franchise holder's (FRA);
    the lien its fund creates; its surcharge rule; the prefix of the first rule its lines name.
    """
    if declared in PROGRAMS:
        return declared
    if is_party_account:
        return "FRA"
    if lien_kind in LIEN_KIND_PROGRAM:
        return LIEN_KIND_PROGRAM[lien_kind]
    if surcharge_rule in SURCHARGE_PROGRAM:
        return SURCHARGE_PROGRAM[surcharge_rule]
    for text in rules:
        found = rule_id(text)
        if found and found[:3] in PROGRAMS:
            return found[:3]
    return "OTHER"


def mailing_method(program: str, declared: str = "") -> str:
    """TID-4 notices go by certified mail with return receipt; the rest (franchise tariff invoices
    included, FRA-3) by regular mail.
    A billing that declares the method (improvement districts decide it by collector) is followed."""
    if declared in ("REGULAR", "CERTIFIED_RR"):
        return declared
    return "CERTIFIED_RR" if program in CERTIFIED_PROGRAMS else "REGULAR"


# The rule that says how a program's notices are mailed (printed on the notice with the method).
MAILING_RULE = {"SID": "SID-2", "TID": "TID-4", "FRA": "FRA-3"}
TREASURY_OFFICE_KIND = "TREASURY"


def mailing_rule(program: str) -> str:
    """SID-2 (regular mail), TID-4 (certified mail), FRA-3 (a tariff invoice: regular mail), or
    "" for programs whose statutes do not say how the notice goes (regular mail)."""
    return MAILING_RULE.get(program, "")


def payee_is_treasurer(*, program: str, office_kind: str) -> bool:
    """Whether checks are made out to the Secretary of the Treasury (*Secretario de Hacienda*)
    rather than to the collecting office by name: when the collector is the Treasury, and for
    franchise tariffs, which FRA-3 says are paid to the Secretary whoever sends the bill."""
    return office_kind == TREASURY_OFFICE_KIND or program == "FRA"


def activation_hash(code: str) -> str:
    """What is stored of a portal activation code (formatted XXXX-XXXX-XXXX). 60 random bits: a
    plain SHA-256 is enough, nobody can search that space."""
    return hashlib.sha256(f"notices.activation:{code}".encode()).hexdigest()


def sort_key(*, cadastre: str = "", holder: str = "") -> str:
    """Printing order of a batch: parcels by cadastre, then franchise holders by name."""
    return (cadastre or f"~{holder.casefold()}")[:120]


def notice_language(addressees: list[dict], default: str = "es") -> str:
    """The language a notice is issued in when nobody chose one for it: English when every
    addressee asked for English (their party's `notice_language`), else Spanish, the official
    default. One notice goes to all co-owners, so one who did not ask keeps the default; any of
    them can still ask for the notice in English ("Emitir en inglés")."""
    wanted = {a.get("language") or default for a in addressees}
    return wanted.pop() if len(wanted) == 1 else default
