"""`franchise-tariff` calculation (docs/compute.md) over rules.franchise (FRA-1 to FRA-3)."""
from __future__ import annotations

from decimal import Decimal

from assessments.rules.franchise import EXEMPTIONS, PLANS, SOURCES, USES, assess, tariff_class, tariffs_from_parameters
from core.compute_errors import ComputeInputError
from core.payload import json_decimal, optional_date, what_if
from core.rule_parameters import ParameterNotFound

FAMILY = "fra_tariffs"


def _gallons(value: object, field: str) -> Decimal:
    return json_decimal(value, field, what="a number of gallons", noun="number of gallons", non_negative=True)


def _choice(payload: dict, key: str, options, *, optional: bool = False, default: str | None = None) -> str | None:
    value = payload.get(key)
    if value is None and optional:
        return default
    if value not in options:
        raise ComputeInputError(key, f"unknown {key} {value!r}; one of {', '.join(options)}")
    return value


def compute(payload: dict, params) -> dict:
    params = what_if(payload, params)
    source = _choice(payload, "source", SOURCES)
    use = _choice(payload, "use", USES)
    plan = _choice(payload, "payment_plan", PLANS, optional=True, default="ANNUAL")
    exempt_reason = _choice(payload, "exempt_reason", EXEMPTIONS, optional=True)
    try:
        version = params.get(FAMILY, optional_date(payload, "as_of"))
        tariffs = tariffs_from_parameters(version.values)
    except ParameterNotFound as exc:
        raise ComputeInputError("as_of", str(exc)) from None
    except (KeyError, TypeError, ArithmeticError) as exc:
        raise ComputeInputError("parameters", f"invalid {FAMILY} parameters: {exc}") from None
    code = tariff_class(source, use)
    if code not in tariffs:
        raise ComputeInputError("parameters", f"no {code} tariff in {version.label()}")
    authorized = monthly = None
    if exempt_reason is None and tariffs[code].metered:
        raw = payload.get("monthly_gallons_extracted")
        if not isinstance(raw, list):
            raise ComputeInputError("monthly_gallons_extracted", f"required for {code} (a list, one value a month)")
        monthly = [_gallons(v, f"monthly_gallons_extracted[{i}]") for i, v in enumerate(raw)]
    elif exempt_reason is None:
        if payload.get("authorized_gallons") is None:
            raise ComputeInputError("authorized_gallons", f"required for {code}")
        authorized = _gallons(payload["authorized_gallons"], "authorized_gallons")
    result = assess(source, use, tariffs, authorized_gallons=authorized, monthly_gallons=monthly or (),
                    plan=plan, exempt_reason=exempt_reason)
    tariff = tariffs[code]
    return {
        "tariff_class": result.tariff_class,
        "annual_tariff": str(result.annual_tariff),
        "installments": [str(a) for a in result.installments],
        "monthly_bills": [str(a) for a in result.monthly_bills],
        "exempt_reason": result.exempt_reason,
        "payment_plan": None if tariff.metered or exempt_reason else plan,
        "rules": list(result.rules),
        "citation": EXEMPTIONS[exempt_reason] if exempt_reason else tariff.citation,
        "parameters": [version.label()],
    }
