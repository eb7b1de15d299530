#!/usr/bin/env python3
"""tests/plugins/lua_style.py FILE...: the Lua plugins' one indentation style.  Each block level
(function, then, do, repeat, else, and a bracket that ends its line) indents by two spaces, never
a tab.  A continuation line (inside a bracket opened mid-line, or next to a binary operator) may
align as it likes, deeper than its statement.  Prints FILE:LINE: problem; exit 1 on any."""
import re
import sys

UNIT = 2
TOKEN = re.compile(r"""--\[(=*)\[|\[(=*)\[|--[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                   r"""|[A-Za-z_][A-Za-z0-9_]*|\.\.\.?|[=~<>]=|[(){}\[\]]|\S""")
OPENERS = {"function", "then", "do", "repeat"}
CLOSERS = {"end", "until", "elseif"}
BINARY = {"..", "and", "or", "+", "-", "*", "/", "%", "^", "==", "~=", "<", "<=", ">", ">=", "="}


def tokenize(text):
    """Per line, its tokens (a string literal is "str"; comments are dropped) and whether the line
    lies inside a long string or comment that began on an earlier line."""
    n_lines = text.count("\n") + 1
    tokens = [[] for _ in range(n_lines)]
    inside_long = [False] * n_lines
    pos, line = 0, 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\n":
            line += 1
            pos += 1
            continue
        if ch in " \t\r":
            pos += 1
            continue
        m = TOKEN.match(text, pos)
        level = m.group(1) if m.group(1) is not None else m.group(2)
        if level is not None:   # a long string or comment: skip to its close
            end = text.find("]" + level + "]", m.end())
            end = len(text) if end < 0 else end + len(level) + 2
            if m.group(2) is not None:
                tokens[line].append("str")
            last = line + text.count("\n", m.start(), end)
            for inner in range(line + 1, last + 1):
                inside_long[inner] = True
            line, pos = last, end
            continue
        tok = m.group(0)
        if not tok.startswith("--"):
            tokens[line].append("str" if tok[0] in "\"'" else tok)
        pos = m.end()
    return tokens, inside_long


def check(path):
    text = open(path, encoding="utf-8").read()
    tokens, inside_long = tokenize(text)
    problems = []
    # One entry per open block or bracket: "indent" (a block, or a bracket that ends its line:
    # what follows is one level deeper), "align" (a bracket opened mid-line: what follows is a
    # continuation) or "neutral" (a bracket whose line ends with a deeper "indent").
    stack = []
    prev_code = []
    for number, (line, toks) in enumerate(zip(text.split("\n"), tokens), 1):
        indent = line[:len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and not inside_long[number - 1]:
            problems.append(f"{path}:{number}: a tab in the indentation")
        if line.strip() and not inside_long[number - 1]:
            closing = list(stack)
            for tok in toks:   # a line that starts with closers sits at the level they return to
                if tok not in CLOSERS and tok not in (")", "}", "]", "else"):
                    break
                if closing:
                    closing.pop()
                if tok in ("else", "elseif"):
                    break
            want = UNIT * closing.count("indent")
            continuation = ("align" in stack
                            or (prev_code and prev_code[-1] in BINARY)
                            or (toks and (toks[0] in BINARY or toks[0] in (":", "."))))
            if continuation:
                if len(indent) <= want and toks and toks[0] not in (")", "}", "]"):
                    problems.append(f"{path}:{number}: a continuation line at {len(indent)} "
                                    f"spaces, not deeper than its statement ({want})")
            elif len(indent) != want:
                problems.append(f"{path}:{number}: indented {len(indent)} spaces, "
                                f"expected {want} ({UNIT} per level)")
        opened_here = len(stack)
        for i, tok in enumerate(toks):
            if tok in OPENERS:
                stack.append("indent")
            elif tok == "else":
                if stack:
                    stack.pop()
                stack.append("indent")
            elif tok in CLOSERS or tok in (")", "}", "]"):
                if stack:
                    stack.pop()
                opened_here = min(opened_here, len(stack))
            elif tok in ("(", "{", "["):
                stack.append("indent" if i == len(toks) - 1 else "align")
        # `f({`, `x = { a = 1, b = {`, `g(function()`: what this line leaves open is one level
        if len(stack) > opened_here and stack[-1] == "indent":
            for k in range(opened_here, len(stack) - 1):
                if stack[k] == "align":
                    stack[k] = "neutral"
        if toks:
            prev_code = toks
    return problems


def main():
    problems = [p for path in sys.argv[1:] for p in check(path)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
