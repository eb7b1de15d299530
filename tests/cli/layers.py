#!/usr/bin/env python3
"""The shape of core/, checked from the source: the folders' order (the Makefile's CORE_DIRS, the
one statement of it, which README.md's architecture section repeats), includes that only run down
that order, and the size limits a reader can take in: no C file over 1,000 lines, no function over
80.  Prints one lib.sh line per check; run from the repository root."""
import glob, os, re, sys

MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 80
GENERATED = {'kb_schema.h', 'manual_md.h'}


def report(name, problems):
    if problems:
        print(f'not ok - {name}: ' + '; '.join(problems[:8]) +
              (f' (and {len(problems) - 8} more)' if len(problems) > 8 else ''))
    else:
        print(f'ok - {name}')


def layer_order():
    text = open('Makefile').read()
    m = re.search(r'^CORE_DIRS\s*:=\s*(.+)$', text, re.M)
    return m.group(1).split() if m else []


def include_problems(order):
    rank = {d: i for i, d in enumerate(order)}
    problems = []
    for path in sorted(glob.glob('core/*/*.[ch]')):
        folder = path.split('/')[1]
        if folder not in rank:
            if folder not in ('tools',):
                problems.append(f'{path}: folder {folder} is not in CORE_DIRS')
            continue
        for n, line in enumerate(open(path, encoding='utf-8'), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if '/' not in inc:
                if inc not in GENERATED and not os.path.exists(f'core/{folder}/{inc}'):
                    problems.append(f'{path}:{n}: "{inc}" is not in core/{folder}/')
                continue
            there = inc.split('/')[0]
            if there not in rank:
                problems.append(f'{path}:{n}: "{inc}" names no folder of core/')
            elif there == folder:
                problems.append(f'{path}:{n}: "{inc}" is in its own folder: write "{inc.split("/", 1)[1]}"')
            elif rank[there] > rank[folder]:
                problems.append(f'{path}:{n}: {folder}/ includes {there}/, a folder above it')
    return problems


def functions(path):
    """(name, first line, length) of each function defined in a C file: a definition's body opens
    with '{' at column 0 and closes with '}' at column 0, as every file here is written."""
    lines = open(path, encoding='utf-8').read().split('\n')
    start = name = None
    for i, line in enumerate(lines):
        if start is None and line.startswith('{') and i > 0:
            j = i - 1
            while j >= 0 and '(' not in lines[j] and lines[j].strip():
                j -= 1
            m = re.search(r'(\w+)\s*\(', lines[j]) if j >= 0 else None
            if m and not lines[i - 1].rstrip().endswith('='):
                start, name = j, m.group(1)
        elif start is not None and line.startswith('}'):
            yield name, start + 1, i - start + 1
            start = None


def main():
    order = layer_order()
    report('Makefile states the order of core/ folders (CORE_DIRS)', [] if order else ['no CORE_DIRS line'])
    actual = sorted(d for d in os.listdir('core') if os.path.isdir(f'core/{d}') and glob.glob(f'core/{d}/*.c'))
    missing = [d for d in actual if d not in order and d != 'tools']
    report('every folder of core/ with C code is in CORE_DIRS', [f'{d}/ is not' for d in missing])
    readme = open('README.md', encoding='utf-8').read()
    stated = ' → '.join(f'{d}/' for d in order)
    report('README.md states the same order of folders',
           [] if stated in readme else [f'README.md lacks "{stated}"'])
    report('includes run only down the order of folders', include_problems(order))
    long_files = [f'{p}: {n} lines' for p in sorted(glob.glob('core/*/*.c'))
                  for n in [sum(1 for _ in open(p, encoding='utf-8'))] if n > MAX_FILE_LINES]
    report(f'no C file in core/ is over {MAX_FILE_LINES} lines', long_files)
    long_functions = [f'{p}:{line} {name}: {n} lines' for p in sorted(glob.glob('core/*/*.c'))
                      for name, line, n in functions(p) if n > MAX_FUNCTION_LINES]
    report(f'no function in core/ is over {MAX_FUNCTION_LINES} lines', long_functions)
    # The check itself can fail: a function of 81 lines is found.
    probe = '/tmp/layers-probe-%d.c' % os.getpid()
    with open(probe, 'w') as f:
        f.write('static int probe(void)\n{\n' + '    x();\n' * 78 + '}\n')
    found = list(functions(probe))
    os.unlink(probe)
    report('the function-length check finds an 81-line function',
           [] if found == [('probe', 1, 81)] else [f'found {found}'])


if __name__ == '__main__':
    main()
