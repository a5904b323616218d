"""Stage 3: parse effect text with the Lark grammar in ``grammar/effects.lark``.

Parse errors are mapped to plain words (never grammar terminal names) and to
the position in the rule file where the effect text starts.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .errors import ParseError, Span, msg
from . import cache

MAX_TREE_DEPTH = 100   # statements and expressions nested deeper than this are refused
MAX_DIGITS = 100       # a number written with more digits is refused


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token):
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise _BadDedent(token) from None


class _BadDedent(Exception):
    """A line indented less than its block but more than the enclosing one."""

    def __init__(self, token: Token):
        super().__init__("inconsistent dedent")
        self.token = token


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar/effects.lark").read_text()
    return Lark(grammar, parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=True, start=["start", "expr_start"])


_WORDS = {
    "_NL": msg("end of line"), "_INDENT": msg("an indented block"), "_DEDENT": msg("end of block"),
    "NAME": msg("a name"), "NUMBER": msg("a number"), "STRING": msg("a quoted string"),
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'",
    "COMMA": "','", "DOT": "'.'", "EQUAL": "'='", "$END": msg("end of text"),
    "COMPOP": msg("a comparison"), "ADDOP": msg("'+' or '-'"), "MULOP": msg("'*', '//' or '%'"),
    "AUGOP": msg("'+=' or '-='"), "MINUS": "'-'", "NOT_IN": "'not in'",
}


def _describe(token_type: str) -> str:
    if token_type in _WORDS:
        return _WORDS[token_type]
    if token_type.isupper() and not token_type.startswith("_"):
        return f"'{token_type.lower()}'"
    return token_type


def parse_effect(text: str, origin: Span, start: str = "start") -> Tree:
    """Parse effect text (or, with start="expr_start", one expression) found at *origin*."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = cache.tree(source, start, lambda: _parser().parse(source, start=start))
    except RecursionError:
        raise ParseError(msg("effect nested too deeply (at most {most} levels)", most=MAX_TREE_DEPTH), origin) from None
    except UnexpectedInput as exc:
        raise _friendly(exc, source, origin) from None
    except _BadDedent as exc:
        # The newline token ends where the badly indented line's text starts.
        token = exc.token
        span = origin.shifted(token.end_line or 1, token.end_column or 1)
        raise ParseError(msg("this line is indented less than its block but more than the "
                             "block around it; indent it like one of them"), span) from None
    _check_limits(tree, origin)
    return tree


def _check_limits(tree: Tree, origin: Span) -> None:
    """Refuse what later stages cannot handle: deep nesting (blocks, brackets, long chains of
    operators) and huge numbers. Walks the tree without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            meta = node.meta
            span = origin.shifted(meta.line, meta.column) if not meta.empty else origin
            raise ParseError(msg("effect nested too deeply (at most {most} levels of blocks, "
                                 "brackets and operators); split it into functions or macros", most=MAX_TREE_DEPTH), span)
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
            elif isinstance(child, Token) and child.type == "NUMBER" and len(child.value) > MAX_DIGITS:
                raise ParseError(msg("number with more than {most} digits", most=MAX_DIGITS),
                                 origin.shifted(child.line or 1, child.column or 1))
            elif isinstance(child, Token) and child.type == "STRING" and "\\" in child.value:
                _check_escapes(child, origin)


# one escape sequence in a quoted text, as Python's unicode_escape reads it
_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|.)", re.S)


def _decode(body: str) -> str:
    """The text a quoted string's body (between its quotes) stands for; the same decoding
    as the expression compiler's (latin-1 + backslashreplace keeps non-ASCII letters)."""
    return body.encode("latin-1", "backslashreplace").decode("unicode_escape")


def _check_escapes(token: Token, origin: Span) -> None:
    """Refuse a quoted text with an escape that means nothing (\\x without two hex digits,
    \\N{...} naming no character, ...), pointing at the escape."""
    body = token.value[1:-1]
    try:
        _decode(body)
        return
    except UnicodeDecodeError:
        pass
    bad = next((m for m in _ESCAPE.finditer(body) if not _decodes(m[0])), None)
    offset, shown = (bad.start(), bad[0][:12]) if bad is not None else (0, body[:12])
    span = origin.shifted(token.line or 1, (token.column or 1) + 1 + offset)
    raise ParseError(msg("bad escape {escape} in a quoted text", escape=shown), span, msg("write \\\\ for a backslash"))


def _decodes(escape: str) -> bool:
    try:
        _decode(escape)
    except UnicodeDecodeError:
        return False
    return True


def _line(source: str, line: int) -> str:
    lines = source.splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _friendly(exc: UnexpectedInput, source: str, origin: Span) -> ParseError:
    line, col = max(getattr(exc, "line", 1), 1), max(getattr(exc, "column", 1), 1)
    span = origin.shifted(line, col)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        char = source[pos] if pos is not None and pos < len(source) else "?"
        return ParseError(msg("unexpected character '{char}' in effect", char=char), span)
    if isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        if token.type == "$END":
            return ParseError(msg("effect ends too early (an unfinished statement or block?)"), span)
        expected = sorted({_describe(t) for t in exc.expected if not t.startswith("__")})
        shown = token.value.strip() or _describe(token.type)
        hint = ""
        if token.type == "_INDENT":
            hint = msg("unexpected indentation")
        elif token.type in ("_NL", "_DEDENT") and any(e == "':'" for e in expected):
            hint = msg("a ':' is missing at the end of the line before the block")
        elif token.value == "=" and "a comparison" in expected:
            hint = msg("did you mean '=='? A single '=' gives a value (let x = 3)")
        elif re.match(r"(stop|prevent)\b[ \t]*[^ \t\r\n#]", _line(source, line)):
            hint = msg("'stop' and 'prevent' starting a statement are statements of their own (see Events); "
                       "a name or macro called so must be renamed")
        if len(expected) > 6:
            expected = expected[:6] + ["..."]
        if token.type == "_INDENT":
            message, hint = msg("unexpected indentation"), ""
            # point at the indented text, not at the end of the line before it
            span = origin.shifted(token.end_line or line, token.end_column or col)
        elif token.type in ("_NL", "_DEDENT"):
            message = msg("unexpected {what}", what=_describe(token.type))
        else:
            message = msg("unexpected {token!r}", token=shown)
        listed = expected[0] if expected else ""
        for item in expected[1:]:
            listed = msg("{list}, {item}", list=listed, item=item)
        return ParseError(msg("{message}; expected {expected}", message=message, expected=listed), span, hint)
    return ParseError(msg("cannot parse effect: {problem}", problem=str(exc)), span)
