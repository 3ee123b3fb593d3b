"""Hypothesis: on generated programs the fast scanner agrees with the reference path.

The fast path (statement pre-selection, partial libcst parse, positions for
touched statements only) must give exactly what a whole-file libcst parse
with libcst's own ``PositionProvider`` gives; scanning must be stable and
every reported range must hold the reported symbol.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automock.analysis import scanner
from automock.analysis.positions import positions_for
from automock.analysis.scanner import scan_source

IMPORTS = [
    "import time",
    "import time as t",
    "from time import time",
    "from datetime import datetime as DT",
    "import datetime",
    "from random import *",
    "import random",
    "import numpy as np",
    "import os",
    "from os import environ",
    "import requests",
    "from pathlib import Path",
    "import uuid, secrets",
    "from . import helpers",
    "from random import SystemRandom as _SR",
]
USES = [
    "t.time()",
    "time.time()",
    "time()",
    "DT.now()",
    "datetime.datetime.now(tz=None)",
    "shuffle(items)",
    "random.random()",
    "random.Random(42)",
    "np.random.default_rng()",
    "np.random.default_rng(3).random()",
    "os.environ.get('X')",
    "environ['HOME']",
    "requests.get(url)",
    "Path('.').iterdir()",
    "'time.time()'",
    "# time.time()",
    "datetime.datetime(2020, 1, 1)",
    "clock = time",
    "clock()",
    "rng = np.random.default_rng()",
    "rng.random()",
    "s = requests.Session()",
    "s.get(url)",
    "hash(key)",
    "uuid.uuid4()",
    "secrets.token_hex(4)",
    "os.path.join('a', 'b')",
    "value = (os\n        .getpid())",
    "x = 1; y = time.monotonic()",
    "_sr = _SR()",
    "_sr.choice(items)",
]
SHADOWS = ["def time():\n    return 0", "time = None", "random = Dice()", "np = None", "DT = str"]


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(IMPORTS), min_size=2, max_size=7))
    for _ in range(draw(st.integers(1, 5))):
        body = draw(st.lists(st.sampled_from(USES + SHADOWS), min_size=1, max_size=4))
        wrapper = draw(st.sampled_from(["top", "def", "class", "if", "decorated", "if-def"]))
        if wrapper == "top":
            lines.extend(body)
            continue
        header = {
            "def": ["def f(items, url, key):"],
            "class": ["class C:", "    '''doc'''", "    def m(self, items, url, key):"],
            "if": ["if __name__ == '__main__':"],
            "decorated": ["# a comment", "@decorate", "", "def g():"],
            "if-def": ["if flag:", "    x = 0", "    # helper", "    def h(items):"],
        }[wrapper]
        indent = "        " if wrapper in ("class", "if-def") else "    "
        lines.extend(header)
        for statement in body:
            lines.extend(indent + part for part in statement.split("\n"))
        lines.append(indent + "pass")
        if draw(st.booleans()):
            lines.append(indent + "# trailing comment in the block")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + draw(st.sampled_from(["", newline]))


def _tuples(result: object) -> object:
    return result if isinstance(result, str) else [t.to_dict() for t in result]  # type: ignore[attr-defined]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_fast_path_equals_reference(source: str) -> None:
    fast = scanner._analyze(source, "gen.py")
    reference = scanner._analyze(source, "gen.py", reference=True)
    assert _tuples(fast) == _tuples(reference)


@settings(max_examples=60, deadline=None)
@given(programs())
def test_scan_is_stable_and_ranges_hold_the_symbol(source: str) -> None:
    first = scan_source(source)
    scanner._CACHE.clear()
    assert scan_source(source) == first
    assert first.error is None
    lines = re.split(r"\r\n|\n", source)
    for tp in first.touchpoints:
        assert 1 <= tp.line <= tp.end_line <= len(lines)
        segment = "\n".join(lines[tp.line - 1 : tp.end_line])
        start = tp.col
        end = len(segment) - len(lines[tp.end_line - 1]) + tp.end_col
        text = re.sub(r"\s*\n\s*", "", segment[start:end])
        assert text.startswith(tp.symbol), (text, tp.symbol)


@settings(max_examples=60, deadline=None)
@given(programs())
def test_statement_positions_equal_libcst_position_provider(source: str) -> None:
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    chosen: set[tuple[int, ...]] = set()
    for index, statement in enumerate(module.body):
        chosen.add((index,))
        block = getattr(statement, "body", None)
        if isinstance(block, cst.IndentedBlock):  # members of classes and functions
            for inner, member in enumerate(block.body):
                chosen.add((index, inner))
                nested = getattr(member, "body", None)
                if isinstance(nested, cst.IndentedBlock) and nested.body:
                    chosen.add((index, inner, len(nested.body) - 1))
    picked = set(list(sorted(chosen))[::2])
    got = positions_for(module, source, picked)
    assert got, "no positions computed"
    assert all(expected[node] == position for node, position in got.items())

    class Expressions(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Name | cst.Attribute | cst.Call):
                self.found.append(node)
            return True

    visitor = Expressions()
    module.visit(visitor)
    sparse = positions_for(module, source, picked, visitor.found)
    assert set(sparse) <= set(visitor.found)
    assert all(expected[node] == position for node, position in sparse.items())
    assert {n for n in got if n in set(visitor.found)} == set(sparse)


RELOADED = """
import sys
import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
from automock.analysis.positions import positions_for

def sparse_equals_provider():
    source = "import time\\nimport time\\nt.time()"
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    wanted = [module.body[2]]
    got = positions_for(module, source, {(2,)}, wanted)
    return bool(got) and all(expected[n] == p for n, p in got.items())

first = sparse_equals_provider()
for name in [m for m in sys.modules if m == "libcst" or m.startswith("libcst.")]:
    del sys.modules[name]  # as pytester does for modules first imported inside a session
import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
print(first, sparse_equals_provider())
"""


def test_sparse_positions_survive_libcst_imported_afresh() -> None:
    """libcst dropped from ``sys.modules`` and imported again (pytester's in-process runs do
    this) has new classes; the sparse positions must be built from those, or they never
    equal libcst's own. Run in a child so this process keeps its libcst."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", RELOADED], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
