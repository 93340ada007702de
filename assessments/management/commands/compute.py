"""`manage.py compute CALCULATION --input FILE|-` (docs/compute.md).

Prints the result as JSON; invalid input exits 2 with {"error": {...}} on stdout and one line
on stderr, never a traceback.
"""
import json
import sys

from django.core.management.base import BaseCommand

from assessments.compute import CALCULATIONS, ComputeInputError, run
from core.parameters import DatabaseParameters


class Command(BaseCommand):
    help = "Run a rule engine (docs/rules/) over a JSON input and print the JSON result."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("calculation", help=", ".join(CALCULATIONS))
        parser.add_argument("--input", required=True, help="JSON file, or - for standard input")

    def handle(self, *args, calculation, input, **options):
        try:
            payload = self._read(input)
            result = run(calculation, payload, params=DatabaseParameters())
        except ComputeInputError as exc:
            self.stdout.write(json.dumps(exc.as_json(), ensure_ascii=False))
            self.stderr.write(f"compute {calculation}: {exc.field}: {exc.message}")
            sys.exit(2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=1))

    def _read(self, source: str):
        try:
            if source == "-":
                text = sys.stdin.read()
            else:
                with open(source, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            raise ComputeInputError("input", f"cannot read {source}: {exc.strerror}") from exc
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ComputeInputError("input", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                                    position=exc.pos) from exc
