"""The staff dashboard (issue #10): what needs attention, from every app, in one list.

Each app contributes items through its own `dashboard.py` module (autodiscovered, see
`registry`); core gives the work-queue clocks and the flags no app claimed. The home page,
the calendar, the iCal feeds and the daily digest all read the same `registry.collect()`.
"""
