"""Our scripts and styles as phones get them: without their comments and indentation.

The files in static/ are written to be read (their comments say why), and are served as they are written less
what only a reader needs; a phone on the kitchen table's Wi-Fi downloads the code, not the commentary. A script's
lines are kept as lines (no two statements are joined, so what JavaScript reads at a line's end is unchanged); a
style sheet loses its comments and every space that separates nothing. This is not a build step: nothing is
written anywhere, the same file gives the same answer, and the vendored htmx is served as it is.
tests/phone/test_lean_assets.py proves each script still parses and the save machine still holds, and that a
style sheet keeps every character but comments and spaces.
"""

from __future__ import annotations

import re

from flask import request

# A '/' after one of these (or at the start) begins a regular expression, not a division.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^")
_WORD_BEFORE_REGEX = re.compile(r"(?:^|[^\w$])(?:return|typeof|case|in|of|delete|void|throw|new)$")
_KEPT: dict[tuple[str, str], bytes] = {}


def lean(source: str) -> str:
    """A script's `source` without its comments, leading indentation and blank lines."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c in "\"'`":
            j = _string_end(source, i)
            out.append(source[i:j])
            i = j
        elif source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else n
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" if "\n" in source[i:end] else " ")
            i = end
        elif c == "/" and _regex_may_start(out):
            j = _regex_end(source, i)
            out.append(source[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    lines = (line.strip() for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line) + "\n"


def _string_end(source: str, i: int) -> int:
    quote, j = source[i], i + 1
    while j < len(source) and source[j] != quote:
        j += 2 if source[j] == "\\" else 1
    return j + 1


def _regex_end(source: str, i: int) -> int:
    j, in_class = i + 1, False
    while j < len(source) and source[j] != "\n":
        c = source[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(source) and source[j].isalpha():  # its flags
                j += 1
            return j
        j += 1
    return j


def _regex_may_start(out: list[str]) -> bool:
    before = "".join(out[-12:]).rstrip()
    return not before or before[-1] in _BEFORE_REGEX or bool(_WORD_BEFORE_REGEX.search(before))


# A style sheet's tokens: a string (kept whole, a comment's marks inside one included), a comment, a run of
# spaces, and anything else up to the next of those.
_STYLE_TOKENS = re.compile(r""""(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|/\*.*?(?:\*/|\Z)|\s+|[^"'/\s]+|/""", re.S)
# A space beside one of these separates nothing: `a { b: c; }` is `a{b: c}`. (Not beside `:`, `,` or `>`, where a
# space can matter: `a :hover` is not `a:hover`, and `calc(1px + 2px)` needs its spaces.)
_SEPARATORS = "{};"


def lean_style(source: str) -> str:
    """A style sheet's `source` without its comments, each run of spaces one space and none beside `{ } ;`, and
    no `;` before a `}`."""
    out: list[str] = []
    for token in _STYLE_TOKENS.findall(source):
        if token[0] in "\"'":
            out.append(token)
        elif token.isspace() or token.startswith("/*"):
            if out and out[-1] != " " and out[-1][-1] not in _SEPARATORS:
                out.append(" ")
        else:
            if out and out[-1] == " " and token[0] in _SEPARATORS:
                out.pop()
            if token[0] == "}" and out and out[-1].endswith(";") and out[-1][0] not in "\"'":
                out[-1] = out[-1][:-1]
            out.append(token)
    return "".join(out).strip() + "\n"


def serve_lean(response):
    """After a static answer: one of our scripts or style sheets leaves without its comments (kept once per file
    version)."""
    filename = request.view_args.get("filename", "") if request.view_args else ""
    leaner = {".js": lean, ".css": lean_style}.get(filename[filename.rfind("."):])
    if (request.endpoint != "static" or response.status_code != 200 or leaner is None
            or filename.startswith("htmx-")):
        return response
    key = (filename, response.headers.get("ETag", ""))
    original = response.response
    response.direct_passthrough = False
    if key not in _KEPT:
        _KEPT[key] = leaner(response.get_data(as_text=True)).encode()
    if hasattr(original, "close"):
        original.close()  # the file behind the answer, now that its bytes are read
    response.set_data(_KEPT[key])
    return response
