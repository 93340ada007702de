"""TID-2: the ordinance's charge formula, parsed and evaluated safely, and the parcels' charges.

The formula is data typed by staff, so it is never handed to Python (`eval`, `ast`): a small
tokenizer and a recursive-descent parser build a tree once; the tree is type-checked while it
is built (numbers vs. strings) and evaluated in `Decimal` for each parcel, lazily (`if`, `and`
and `or` evaluate only what they need, so `if(frontage_m > 0, 100 / frontage_m, 0)` is safe).

Grammar (lowest precedence first)::

    expr       := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | comparison
    comparison := additive [("==" | "!=" | "<" | "<=" | ">" | ">=") additive]
    additive   := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := ("-" | "+") unary | primary
    primary    := NUMBER | STRING | NAME | call | "(" expr ")"
    call       := ("min" | "max") "(" expr ("," expr)+ ")" | "if" "(" expr "," expr "," expr ")"

Truth values are numbers, as in a spreadsheet: comparisons give 1 or 0, `and`/`or`/`not` treat
any non-zero number as true and give 1 or 0, so `(use_class == "HOTEL") * 100` works. Strings
(`use_class` and "..." literals) may only be compared with `==` and `!=` to strings.

Every error carries the 0-based character offset and a reason: unexpected character,
unterminated string, unexpected token, unknown name, wrong arity, type mismatch, too deeply
nested (while parsing); division by zero, missing value, negative charge (per parcel).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, localcontext

from core.areas import acres_from_m2, cuerdas_from_m2
from core.money import ZERO, round_half_up

# docs/rules/README.md#areas: exact definitions, never a rounded factor.

NUMBER = "number"
STRING = "string"
VARIABLES = {
    "area_m2": NUMBER,
    "area_cuerdas": NUMBER,
    "area_acres": NUMBER,
    "assessed_value": NUMBER,
    "frontage_m": NUMBER,
    "use_class": STRING,
}
FUNCTIONS = ("min", "max", "if")
KEYWORDS = ("and", "or", "not")
COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")
MAX_LENGTH = 2000
MAX_DEPTH = 60
# Working precision for the exact (pre-rounding) value; far beyond a cent on any real charge.
PRECISION = 50
TRUE, FALSE = Decimal(1), Decimal(0)


class FormulaError(ValueError):
    """A formula refused, or a parcel it cannot be evaluated for; `position` is 0-based."""

    def __init__(self, position: int, reason: str, parcel: str | None = None, detail: str = "") -> None:
        self.position = position
        self.reason = reason
        self.parcel = parcel
        self.detail = detail
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return f"{self.reason} for {self.parcel}" if self.parcel is not None else self.reason

    def for_parcel(self, parcel: str) -> FormulaError:
        return FormulaError(self.position, self.reason, parcel, self.detail)


# --- tokens -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Token:
    kind: str  # number, string, name, op, end
    text: str
    pos: int


def tokenize(text: str) -> list[Token]:
    """Split `text` into tokens; refuse any character outside the language."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isascii() and (ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit())):
            j = i
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            if j < n and text[j] == ".":
                j += 1
                while j < n and text[j].isascii() and text[j].isdigit():
                    j += 1
            tokens.append(Token("number", text[i:j], i))
            i = j
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            j = i
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(Token("name", text[i:j], i))
            i = j
        elif ch == '"':
            j = text.find('"', i + 1)
            if j < 0:
                raise FormulaError(i, "unterminated string")
            tokens.append(Token("string", text[i + 1:j], i))
            i = j + 1
        elif text.startswith(("==", "!=", "<=", ">="), i):
            tokens.append(Token("op", text[i:i + 2], i))
            i += 2
        elif ch in "+-*/(),<>":
            tokens.append(Token("op", ch, i))
            i += 1
        else:
            raise FormulaError(i, "unexpected character", detail=repr(ch))
    tokens.append(Token("end", "", n))
    return tokens


# --- tree ---------------------------------------------------------------------------------

Value = Decimal | str
Env = Mapping[str, Value]


@dataclass(frozen=True)
class Node:
    pos: int
    type: str

    def evaluate(self, env: Env) -> Value:  # pragma: no cover - every node overrides it
        raise NotImplementedError


@dataclass(frozen=True)
class Literal(Node):
    value: Value

    def evaluate(self, env: Env) -> Value:
        return self.value


@dataclass(frozen=True)
class Variable(Node):
    name: str

    def evaluate(self, env: Env) -> Value:
        value = env.get(self.name)
        if value is None:
            raise FormulaError(self.pos, "missing value", detail=self.name)
        return value


@dataclass(frozen=True)
class Negate(Node):
    operand: Node

    def evaluate(self, env: Env) -> Value:
        return -self.operand.evaluate(env)


@dataclass(frozen=True)
class Arithmetic(Node):
    op: str
    left: Node
    right: Node

    def evaluate(self, env: Env) -> Value:
        a, b = self.left.evaluate(env), self.right.evaluate(env)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        if b == 0:
            raise FormulaError(self.pos, "division by zero")
        return a / b


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: Node
    right: Node

    def evaluate(self, env: Env) -> Value:
        a, b = self.left.evaluate(env), self.right.evaluate(env)
        result = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[self.op]
        return TRUE if result else FALSE


@dataclass(frozen=True)
class Logical(Node):
    op: str  # and, or
    left: Node
    right: Node

    def evaluate(self, env: Env) -> Value:
        first = self.left.evaluate(env) != 0
        if self.op == "and" and not first:
            return FALSE
        if self.op == "or" and first:
            return TRUE
        return TRUE if self.right.evaluate(env) != 0 else FALSE


@dataclass(frozen=True)
class Not(Node):
    operand: Node

    def evaluate(self, env: Env) -> Value:
        return FALSE if self.operand.evaluate(env) != 0 else TRUE


@dataclass(frozen=True)
class MinMax(Node):
    func: str
    args: tuple[Node, ...]

    def evaluate(self, env: Env) -> Value:
        values = [arg.evaluate(env) for arg in self.args]
        return min(values) if self.func == "min" else max(values)


@dataclass(frozen=True)
class If(Node):
    cond: Node
    then: Node
    other: Node

    def evaluate(self, env: Env) -> Value:
        return self.then.evaluate(env) if self.cond.evaluate(env) != 0 else self.other.evaluate(env)


@dataclass(frozen=True)
class Formula:
    """A parsed, type-checked formula; `names` are the parcel attributes it reads."""

    text: str
    root: Node
    names: frozenset[str]


# --- parser -------------------------------------------------------------------------------

class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0
        self.names: set[str] = set()

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def advance(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        return self.tok.kind in ("op", "name") and self.tok.text in texts

    def expect(self, text: str) -> Token:
        if not (self.tok.kind == "op" and self.tok.text == text):
            raise FormulaError(self.tok.pos, "unexpected token", detail=f"expected {text!r}")
        return self.advance()

    @staticmethod
    def need(node: Node, kind: str, pos: int) -> None:
        if node.type != kind:
            raise FormulaError(pos, "type mismatch", detail=f"expected a {kind}, got a {node.type}")

    def parse(self) -> Node:
        node = self.expr()
        if self.tok.kind != "end":
            raise FormulaError(self.tok.pos, "unexpected token", detail=repr(self.tok.text))
        return node

    def expr(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(self.tok.pos, "too deeply nested")
        node = self.binary_logical("or", self.and_expr)
        self.depth -= 1
        return node

    def and_expr(self) -> Node:
        return self.binary_logical("and", self.not_expr)

    def binary_logical(self, op: str, operand) -> Node:
        node = operand()
        while self.tok.kind == "name" and self.tok.text == op:
            tok = self.advance()
            right = operand()
            self.need(node, NUMBER, tok.pos)
            self.need(right, NUMBER, tok.pos)
            node = Logical(tok.pos, NUMBER, op, node, right)
        return node

    def not_expr(self) -> Node:
        if self.tok.kind == "name" and self.tok.text == "not":
            tok = self.advance()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise FormulaError(tok.pos, "too deeply nested")
            operand = self.not_expr()
            self.depth -= 1
            self.need(operand, NUMBER, tok.pos)
            return Not(tok.pos, NUMBER, operand)
        return self.comparison()

    def comparison(self) -> Node:
        left = self.additive()
        if self.tok.kind == "op" and self.tok.text in COMPARISONS:
            tok = self.advance()
            right = self.additive()
            if left.type != right.type:
                raise FormulaError(tok.pos, "type mismatch", detail=f"cannot compare a {left.type} with a {right.type}")
            if left.type == STRING and tok.text not in ("==", "!="):
                raise FormulaError(tok.pos, "type mismatch", detail="strings compare only with == and !=")
            return Compare(tok.pos, NUMBER, tok.text, left, right)
        return left

    def additive(self) -> Node:
        node = self.term()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            tok = self.advance()
            right = self.term()
            self.need(node, NUMBER, tok.pos)
            self.need(right, NUMBER, tok.pos)
            node = Arithmetic(tok.pos, NUMBER, tok.text, node, right)
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.tok.kind == "op" and self.tok.text in ("*", "/"):
            tok = self.advance()
            right = self.unary()
            self.need(node, NUMBER, tok.pos)
            self.need(right, NUMBER, tok.pos)
            node = Arithmetic(tok.pos, NUMBER, tok.text, node, right)
        return node

    def unary(self) -> Node:
        if self.tok.kind == "op" and self.tok.text in ("-", "+"):
            tok = self.advance()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise FormulaError(tok.pos, "too deeply nested")
            operand = self.unary()
            self.depth -= 1
            self.need(operand, NUMBER, tok.pos)
            return Negate(tok.pos, NUMBER, operand) if tok.text == "-" else operand
        return self.primary()

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "number":
            self.advance()
            return Literal(tok.pos, NUMBER, Decimal(tok.text))
        if tok.kind == "string":
            self.advance()
            return Literal(tok.pos, STRING, tok.text)
        if tok.kind == "op" and tok.text == "(":
            self.advance()
            node = self.expr()
            self.expect(")")
            return node
        if tok.kind == "name" and tok.text in FUNCTIONS:
            return self.call()
        if tok.kind == "name" and tok.text in VARIABLES:
            self.advance()
            self.names.add(tok.text)
            return Variable(tok.pos, VARIABLES[tok.text], tok.text)
        if tok.kind == "name" and tok.text not in KEYWORDS:
            raise FormulaError(tok.pos, "unknown name", detail=tok.text)
        raise FormulaError(tok.pos, "unexpected token", detail=repr(tok.text) if tok.text else "end of formula")

    def call(self) -> Node:
        name = self.advance()
        self.expect("(")
        args = [self.expr()]
        while self.tok.kind == "op" and self.tok.text == ",":
            self.advance()
            args.append(self.expr())
        self.expect(")")
        if name.text == "if":
            if len(args) != 3:
                raise FormulaError(name.pos, "wrong arity", detail=f"if takes 3 arguments, got {len(args)}")
            cond, then, other = args
            self.need(cond, NUMBER, cond.pos)
            if then.type != other.type:
                raise FormulaError(other.pos, "type mismatch", detail="both branches of if must have the same type")
            return If(name.pos, then.type, cond, then, other)
        if len(args) < 2:
            raise FormulaError(name.pos, "wrong arity", detail=f"{name.text} takes at least 2 arguments")
        for arg in args:
            self.need(arg, NUMBER, arg.pos)
        return MinMax(name.pos, NUMBER, name.text, tuple(args))


def parse(text: str) -> Formula:
    """Parse and type-check a TID-2 formula; raises FormulaError with position and reason."""
    if len(text) > MAX_LENGTH:
        raise FormulaError(MAX_LENGTH, "unexpected token", detail=f"formula longer than {MAX_LENGTH} characters")
    parser = _Parser(text)
    root = parser.parse()
    if root.type != NUMBER:
        raise FormulaError(0, "type mismatch", detail="the formula must give a number")
    return Formula(text=text, root=root, names=frozenset(parser.names))


def evaluate(formula: Formula, env: Env) -> Decimal:
    """The formula's exact value (not rounded) for one set of attributes."""
    with localcontext() as ctx:
        ctx.prec = PRECISION
        return formula.root.evaluate(env)


# --- TID-2 charges ------------------------------------------------------------------------

@dataclass(frozen=True)
class TidParcel:
    """A property's attributes as the formula sees them; `None` = not recorded."""

    id: str
    area_m2: Decimal | None = None
    assessed_value: Decimal | None = None
    frontage_m: Decimal | None = None
    use_class: str | None = None

    def attributes(self) -> dict[str, Value | None]:
        """The formula's variables: cuerdas and acres derived from m² exactly, then rounded half-up
        to 4 decimals, the areas every engine takes (docs/rules/conventions.md, "Areas"; TID-2)."""
        cuerdas = cuerdas_from_m2(self.area_m2) if self.area_m2 is not None else None
        acres = acres_from_m2(self.area_m2) if self.area_m2 is not None else None
        return {"area_m2": self.area_m2, "area_cuerdas": cuerdas, "area_acres": acres,
                "assessed_value": self.assessed_value, "frontage_m": self.frontage_m, "use_class": self.use_class}


@dataclass(frozen=True)
class ParcelCharge:
    id: str
    charge: Decimal


@dataclass(frozen=True)
class TidCharges:
    parcels: tuple[ParcelCharge, ...]
    total: Decimal
    difference: Decimal | None  # total - expected amount, None without one


def parcel_charge(formula: Formula, parcel: TidParcel) -> Decimal:
    """TID-2: one property's annual charge, rounded half-up to the cent; negative is an error."""
    try:
        exact = evaluate(formula, parcel.attributes())
    except FormulaError as exc:
        raise exc.for_parcel(parcel.id) from None
    charge = round_half_up(exact)
    if charge < 0:
        raise FormulaError(0, "negative charge", parcel.id, detail=str(charge))
    return charge + ZERO  # normalizes -0.00 to 0.00


def compute_charges(formula: Formula, parcels: Iterable[TidParcel],
                    expected_amount: Decimal | None = None) -> TidCharges:
    """TID-2 preview: each parcel's charge, the total, and the total against the ordinance's amount."""
    lines = tuple(ParcelCharge(p.id, parcel_charge(formula, p)) for p in parcels)
    total = sum((line.charge for line in lines), ZERO)
    difference = total - expected_amount if expected_amount is not None else None
    return TidCharges(parcels=lines, total=total, difference=difference)
