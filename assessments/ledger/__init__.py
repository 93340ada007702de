"""The money core (issue #4): receivables, the append-only ledger, payments, batches, bank files.

`assessments.ledger.services` is the public write API; `assessments.ledger.selectors` the reads.
"""
