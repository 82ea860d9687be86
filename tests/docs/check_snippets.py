#!/usr/bin/env python3
"""Compiles every C++ snippet of README.md and docs/*.md (the ```cpp blocks) against the public headers,
so the documentation keeps matching the code. Run by the `docs_snippets` test (label host).

Each markdown file becomes one translation unit: the public umbrella headers, then every snippet of the
file in its own namespace and function, with `#line` directives so that a compiler error names the
markdown file and line. A snippet's `#include` lines move to the top of the unit. A snippet may be
preceded (on the line right before its fence) by an HTML comment the renderer hides:
  <!-- snippet-context: cusci::ndarray img, x; -->   declarations the snippet assumes (its inputs)
  <!-- snippet-skip: reason -->                       not compiled (e.g. needs nvcc), with the reason
and anywhere in a file, declarations every snippet of the file assumes:
  <!-- snippet-file-context: namespace nd = cusci::ndimage; -->
A `// nvcc:` line inside a snippet ends the part compiled by the C++ compiler (the rest needs nvcc).
A snippet that defines `int main(` is a whole program: it is compiled as its own translation unit.
Usage: check_snippets.py --root <repo> --cxx <compiler> [--include DIR ...] [--out DIR]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

HEADERS = ["cusci/core.hpp", "cusci/sparse/sparse.hpp", "cusci/ndimage/ndimage.hpp", "cusci/signal/signal.hpp",
           "cusci/linalg/linalg.hpp"]


def snippets(path):
    """Yields (first line number of the body, body lines, context, skip reason) per ```cpp block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() in ("```cpp", "```c++"):
            prev = lines[i - 1].strip() if i > 0 else ""
            ctx = re.match(r"<!--\s*snippet-context:\s*(.*?)\s*-->$", prev)
            skip = re.match(r"<!--\s*snippet-skip:\s*(.*?)\s*-->$", prev)
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield i + 2, lines[i + 1:j], (ctx.group(1) if ctx else ""), (skip.group(1) if skip else None)
            i = j
        i += 1


def programs(path, rel):
    """The snippets that are whole programs, as (line, source) pairs."""
    for line, body, ctx, skip in snippets(path):
        if skip is None and any("int main(" in b for b in body):
            yield line, f'#line {line} "{rel}"\n' + "\n".join(body) + "\n"


def unit(path, rel):
    includes, parts, skipped = [], [], []
    text = open(path, encoding="utf-8").read()
    file_ctx = "\n".join(m.group(1) for m in re.finditer(r"<!--\s*snippet-file-context:\s*(.*?)\s*-->", text))
    for n, (line, body, ctx, skip) in enumerate(snippets(path)):
        if skip is not None:
            skipped.append(f"{rel}:{line - 1}: skipped ({skip})")
            continue
        if any("int main(" in b for b in body):
            continue  # a whole program (programs())
        code = []
        for k, text in enumerate(body):
            if text.strip().startswith("// nvcc:"):
                break
            if text.strip().startswith("#include"):
                includes.append(text.strip())
                code.append("")  # keeps the line numbers
            else:
                code.append(text)
        parts.append(f"namespace snippet_{n} {{\n{file_ctx}\n{ctx}\n[[maybe_unused]] void body() {{\n"
                     f'#line {line} "{rel}"\n' + "\n".join(code) + "\n}\n}\n")
    if not parts:
        return None, skipped
    head = "\n".join(f"#include <{h}>" for h in HEADERS) + "\n" + "\n".join(sorted(set(includes))) + "\n"
    head += "#include <iostream>\n#include <numeric>\n#include <vector>\nusing namespace cusci;\n"
    head += "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
    return head + "\n".join(parts), skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out = a.out or os.path.join(a.root, "build", "doc_snippets")
    os.makedirs(out, exist_ok=True)
    files = [os.path.join(a.root, "README.md")] + sorted(glob.glob(os.path.join(a.root, "docs", "*.md")))
    failed, count = [], 0
    for path in files:
        rel = os.path.relpath(path, a.root)
        src, skipped = unit(path, rel)
        for s in skipped:
            print(s)
        for k, (line, prog) in enumerate(programs(path, rel)):
            count += 1
            tu = os.path.join(out, rel.replace("/", "_") + f".program{k}.cpp")
            with open(tu, "w", encoding="utf-8") as f:
                f.write(prog)
            r = subprocess.run([a.cxx, "-std=c++20", "-fsyntax-only"] + [f"-I{d}" for d in a.include] + [tu],
                               capture_output=True, text=True)
            print(f"{rel}:{line}: program: {'ok' if r.returncode == 0 else 'FAILED'}")
            if r.returncode != 0:
                failed.append(rel)
                sys.stdout.write(r.stderr[-6000:])
        if src is None:
            continue
        count += src.count("namespace snippet_")
        tu = os.path.join(out, rel.replace("/", "_") + ".cpp")
        with open(tu, "w", encoding="utf-8") as f:
            f.write(src)
        cmd = [a.cxx, "-std=c++20", "-fsyntax-only", "-Wno-deprecated-declarations"] + \
              [f"-I{d}" for d in a.include] + [tu]
        r = subprocess.run(cmd, capture_output=True, text=True)
        print(f"{rel}: {src.count('namespace snippet_')} snippet(s): {'ok' if r.returncode == 0 else 'FAILED'}")
        if r.returncode != 0:
            failed.append(rel)
            sys.stdout.write(r.stderr[-6000:])
    print(f"{count} snippets compiled, {len(failed)} file(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
