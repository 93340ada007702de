"""Benchmark the IRR and LAJ roll engines on 1,000,000 synthetic parcels, end to end in memory.

    .venv/bin/python benchmarks/roll_engines.py [--parcels N] [--engine irr|laj|both] [--count-only]

Each engine runs in its own child process so its peak RSS is its own. Input records are built
in memory first (timed separately); then pass 1 (plan) and pass 2 (the charge stream, kept in a
list unless --count-only) are timed together: wall seconds, CPU seconds, parcels per second.
Prints figures only; it asserts nothing. Target: under 30 s per engine on one core.
"""
from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import time
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assessments.rules import irrigation, lajas  # noqa: E402
from assessments.rules.parameters import ShippedParameters  # noqa: E402
from core.fiscal import fiscal_year_start  # noqa: E402

FISCAL_YEAR = 2027


def _acres(rng: random.Random) -> Decimal:
    # Mostly small farms, a few large ones; 4 decimals like converted cuerdas.
    return Decimal(rng.randint(2_500, 1_500_000 if rng.random() < 0.98 else 50_000_000)).scaleb(-4)


def irr_inputs(n: int, seed: int = 7) -> tuple[irrigation.IrrigationFigures, list[irrigation.IrrigationParcel]]:
    rng = random.Random(seed)
    figures = irrigation.IrrigationFigures(
        fiscal_year=FISCAL_YEAR, bond_interest=Decimal("8500000.00"), bond_principal=Decimal("15000000.00"),
        bonds_outstanding=Decimal("120000000.00"), om_cost=Decimal("31000000.00"), deficit=Decimal("1250000.00"),
        surplus=Decimal("0.00"), estimated_hydro_income=Decimal("6000000.00"), hydro_retained=Decimal("1500000.00"),
        other_income=Decimal("425000.00"), completion_certified_on=None)
    levels = [Decimal(x) for x in ("0", "0.5", "1.2", "1.9", "2", "2.4", "3.1", "4")]
    base = date(1990, 1, 1)
    parcels = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.08:
            end = None
        elif roll < 0.13:
            end = date(2026, 7, 1) + timedelta(days=rng.randrange(365))     # stubs and free semesters
        else:
            end = base + timedelta(days=rng.randrange(36 * 365))
        water = {"FY2026-S1": rng.choice(levels), "FY2026-S2": rng.choice(levels)}
        if rng.random() < 0.3:
            water["FY2025-S2"] = rng.choice(levels)
        parcels.append(irrigation.IrrigationParcel(id=f"P-{i:07d}", acres=_acres(rng), free_period_end=end,
                                                   water_af_per_acre=water))
    return figures, parcels


def laj_inputs(n: int, seed: int = 11) -> tuple[lajas.LajasFigures, list[lajas.LajasParcel]]:
    rng = random.Random(seed)
    figures = lajas.LajasFigures(
        fiscal_year=FISCAL_YEAR, om_estimate=Decimal("125000000.00"), reserve=Decimal("2500000.00"),
        water_right_credits=Decimal("13467105.00"), deficit=Decimal("0.00"), surplus=Decimal("3275000.00"),
        misc_income=Decimal("4120000.00"))
    pcts = [Decimal(x) for x in ("0", "0", "0", "0", "12.5", "35", "5")]
    parcels = []
    for i in range(n):
        pumped = _acres(rng) if rng.random() < 0.3 else Decimal(0)
        gravity = _acres(rng) if rng.random() < 0.9 else Decimal(0)
        completed = None if rng.random() < 0.03 else date(1990, 1, 1) + timedelta(days=rng.randrange(37 * 365))
        parcels.append(lajas.LajasParcel(id=i + 1, gravity_acres=gravity, pumped_acres=pumped,
                                         credit_pct=rng.choice(pcts), twelve_months_completed_on=completed))
    return figures, parcels


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _measure(label: str, n: int, run) -> None:
    inputs_mib = _peak_mib()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    produced = run()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    peak_mib = _peak_mib()
    print(f"{label:<34} wall {wall:6.2f} s  cpu {cpu:6.2f} s  {n / wall:>8,.0f} parcels/s (wall)  "
          f"{n / cpu:>8,.0f} parcels/s (cpu)  peak RSS {peak_mib:,.0f} MiB ({inputs_mib:,.0f} MiB with the inputs "
          f"alone)\n    {produced}", flush=True)


def bench_irr(n: int, keep: bool) -> None:
    t0 = time.perf_counter()
    figures, parcels = irr_inputs(n)
    print(f"IRR: built {n:,} input parcels in {time.perf_counter() - t0:.2f} s (not in the figures below)")
    rules = irrigation.IrrigationRules.from_parameters(ShippedParameters(), FISCAL_YEAR)

    def run():
        plan = irrigation.irrigation_plan(figures, ((p.id, p.acres) for p in parcels), rules)
        tally = irrigation.RollTally(plan)
        stream = irrigation.charges(plan, parcels, tally)
        if keep:
            out = list(stream)
            produced = f"{len(out):,} ParcelCharge kept"
        else:
            produced = f"{sum(1 for _ in stream):,} ParcelCharge counted"
        totals = tally.totals()
        return f"{produced}; total {totals.total}, billed {totals.billed_total}, shares {totals.shares_total}"

    _measure("IRR plan + charges (IRR-1..9)", n, run)


def bench_laj(n: int, keep: bool) -> None:
    t0 = time.perf_counter()
    figures, parcels = laj_inputs(n)
    print(f"LAJ: built {n:,} input parcels in {time.perf_counter() - t0:.2f} s (not in the figures below)")
    rules = lajas.LajasRules.from_parameters(ShippedParameters(), fiscal_year_start(FISCAL_YEAR))

    def run():
        plan = lajas.lajas_plan(figures, ((p.id, p.gravity_acres, p.pumped_acres) for p in parcels), rules)
        tally = lajas.RollTally(plan)
        stream = lajas.contributions(plan, parcels, tally)
        if keep:
            out = list(stream)
            produced = f"{len(out):,} ParcelContribution kept"
        else:
            produced = f"{sum(1 for _ in stream):,} ParcelContribution counted"
        totals = tally.totals()
        return f"{produced}; total {totals.total}, billed {totals.billed_total}, gross {totals.gross_total}"

    _measure("LAJ plan + contributions (LAJ-1..6)", n, run)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parcels", type=int, default=1_000_000)
    ap.add_argument("--engine", choices=("irr", "laj", "both"), default="both")
    ap.add_argument("--count-only", action="store_true", help="count the stream instead of keeping the records")
    ap.add_argument("--profile", action="store_true", help="run under cProfile and print the top functions")
    args = ap.parse_args()
    if args.engine == "both":
        # One child per engine, so each peak RSS is that engine's alone.
        for engine in ("irr", "laj"):
            cmd = [sys.executable, __file__, "--engine", engine, "--parcels", str(args.parcels)]
            cmd += ["--count-only"] if args.count_only else []
            subprocess.run(cmd, check=True)
        return
    bench = bench_irr if args.engine == "irr" else bench_laj
    if args.profile:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            bench(args.parcels, not args.count_only)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    else:
        bench(args.parcels, not args.count_only)


if __name__ == "__main__":
    main()
