"""Resolution by qualified name: aliases, star imports, objects, and no false positives."""

from __future__ import annotations

import textwrap

import pytest

from automock.analysis.scanner import scan_source


def found(source: str) -> list[tuple[str, str]]:
    """``(api, symbol)`` of every touchpoint in ``source``."""
    scan = scan_source(textwrap.dedent(source))
    assert scan.error is None, scan.error
    return [(t.api, t.symbol) for t in scan.touchpoints]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import time as t\nt.time()", [("time.time", "t.time")]),
        (
            "from datetime import datetime as DT\nDT.now()",
            [("datetime.datetime.now", "DT.now")],
        ),
        ("from random import *\nshuffle(deck)", [("random.shuffle", "shuffle")]),
        (
            "import numpy as np\nnp.random.default_rng()",
            [("numpy.random.default_rng", "np.random.default_rng")],
        ),
        (
            "import datetime\ndatetime.datetime.now(tz=datetime.timezone.utc)",
            [("datetime.datetime.now", "datetime.datetime.now")],
        ),
        ("from time import time as now\nnow()", [("time.time", "now")]),
        ("import os.path\nos.path.getmtime(p)", [("os.path.getmtime", "os.path.getmtime")]),
        ("import urllib.request as ur\nur.urlopen(u)", [("urllib.request.urlopen", "ur.urlopen")]),
        ("from os import environ\nenviron['X']", [("os.environ", "environ")]),
        (
            "from sqlalchemy import create_engine\ncreate_engine(u)",
            [("sqlalchemy.create_engine", "create_engine")],
        ),
        (
            "from pymongo import MongoClient\nMongoClient()",
            [("pymongo.MongoClient", "MongoClient")],
        ),
        ("from redis import Redis\nRedis()", [("redis.Redis", "Redis")]),
        ("import psycopg2 as pg\npg.connect(d)", [("psycopg2.connect", "pg.connect")]),
        # an alias made by assignment is followed too
        (
            "import time\nclock = time.monotonic\nclock()",
            [("time.monotonic", "time.monotonic"), ("time.monotonic", "clock")],
        ),
        # a reference passed as a value (default_factory=...) still counts
        ("import uuid\nfield(default_factory=uuid.uuid4)", [("uuid.uuid4", "uuid.uuid4")]),
        # import inside a function
        (
            "def f():\n    import random\n    return random.random()",
            [("random.random", "random.random")],
        ),
        # a global used from a nested function
        (
            "import time\ndef f():\n    def g():\n        return time.time()\n    return g",
            [("time.time", "time.time")],
        ),
    ],
)
def test_aliasing_forms_resolve_to_the_qualified_api(
    source: str, expected: list[tuple[str, str]]
) -> None:
    assert found(source) == expected


def test_objects_built_from_catalog_constructors_are_followed() -> None:
    source = """
        import numpy as np
        import requests
        import random
        rng = np.random.default_rng()
        rng.integers(0, 10)
        s = requests.Session()
        s.get("https://example.com")
        r = random.Random()
        r.choice("abc")
        with requests.Session() as session:
            session.post("https://example.com")
    """
    assert found(source) == [
        ("numpy.random.default_rng", "np.random.default_rng"),
        ("numpy.random.Generator.integers", "rng.integers"),
        ("requests.Session", "requests.Session"),
        ("requests.Session.get", "s.get"),
        ("random.Random", "random.Random"),
        ("random.Random.choice", "r.choice"),
        ("requests.Session", "requests.Session"),
        ("requests.Session.post", "session.post"),
    ]


def test_module_level_object_from_an_aliased_constructor_used_in_a_function() -> None:
    source = """
        import string
        from random import SystemRandom as _SystemRandom
        CHARS = string.ascii_letters
        _sr = _SystemRandom()
        def unrelated():
            return 1
        def salt():
            return "".join(_sr.choice(CHARS) for _ in range(8))
    """
    assert found(source) == [
        ("random.SystemRandom", "_SystemRandom"),
        ("random.SystemRandom.choice", "_sr.choice"),
    ]


def test_annotated_parameters_are_followed() -> None:
    source = """
        import httpx
        async def fetch(client: httpx.AsyncClient, url: str) -> bytes:
            return (await client.get(url)).content
    """
    assert found(source) == [("httpx.AsyncClient.get", "client.get")]


def test_async_with_client_session() -> None:
    source = """
        import aiohttp
        async def main():
            async with aiohttp.ClientSession() as session:
                async with session.get("http://x") as resp:
                    return await resp.text()
    """
    assert found(source) == [
        ("aiohttp.ClientSession", "aiohttp.ClientSession"),
        ("aiohttp.ClientSession.get", "session.get"),
    ]


@pytest.mark.parametrize(
    "source",
    [
        # a local function shadows the import
        "from time import time\ndef time():\n    return 0\ntime()",
        "def time():\n    return 0\ntime()",
        # a parameter shadows the module
        "import time\ndef f(time):\n    return time.time()",
        # a local assignment shadows the module
        "import random\ndef f():\n    random = Dice()\n    return random.random()",
        "import os\nfor os in things:\n    os.listdir()",
        "import random\nrandom = None\nrandom.random()",
        # text that only looks like a call
        "import time\nx = 'time.time()'\n# time.time()\n",
        'import time\n"""time.sleep(1)"""',
        # deterministic uses
        "import datetime\ndatetime.datetime(2020, 1, 1)",
        "from datetime import datetime\ndatetime(2020, 1, 1).isoformat()",
        "import datetime\ndatetime.datetime.fromisoformat('2020-01-01')",
        "import random\nrandom.Random(42)",
        "import random\nrng = random.Random(42)\nrng.random()",
        "import random\nrandom.seed(1234)",
        "import numpy as np\nrng = np.random.default_rng(7)\nrng.integers(3)",
        "import numpy as np\nnp.random.default_rng(seed=7)",
        "import time\ntime.gmtime(0)",
        "import uuid\nuuid.uuid5(uuid.NAMESPACE_DNS, 'x')",
        "import os\nos.path.join('a', 'b')",
        "import subprocess\nsubprocess.PIPE",
        # types, not uses
        "import requests\ndef f(s: requests.Session) -> None: ...",
        "import requests\nisinstance(x, requests.Session)",
        "import socket\ntry:\n    pass\nexcept socket.timeout:\n    pass",
        # keyword names and attribute names are not references
        "import time\nf(time=1)\nobj.time()",
        # relative imports are the project's own code
        "from .time import time\ntime()",
        # a module with the same leaf name is not the catalog module
        "import mypkg.time as time\ntime.time()",
        # no import at all
        "time.time()\nrandom.random()",
    ],
)
def test_no_false_positives(source: str) -> None:
    assert found(source) == []


def test_rebinding_is_order_sensitive_at_module_level() -> None:
    source = """
        import time
        time.time()
        def time():
            return 0
        time()
    """
    assert found(source) == [("time.time", "time.time")]


def test_assignment_evaluates_the_right_hand_side_first() -> None:
    assert found("import time\ntime = time.time()") == [("time.time", "time.time")]


def test_positions_cover_the_call_and_symbol_is_as_written() -> None:
    scan = scan_source("import time as t\nx = [\n    t.time(),\n]\nnow = t.monotonic\n")
    first, second = scan.touchpoints
    assert (first.line, first.col, first.end_line, first.end_col) == (3, 4, 3, 12)
    assert first.symbol == "t.time"
    # a reference that is not called spans just the reference
    assert (second.line, second.col, second.end_col) == (5, 6, 17)


def test_columns_count_characters_not_bytes() -> None:
    scan = scan_source("import time\nnom = 'é' ; time.time()\n")
    (tp,) = scan.touchpoints
    assert tp.col == len("nom = 'é' ; ")


def test_multiline_symbol_is_normalised() -> None:
    scan = scan_source("import datetime\nx = (datetime\n    .datetime\n    .now())\n")
    (tp,) = scan.touchpoints
    assert tp.symbol == "datetime.datetime.now"
    assert (tp.line, tp.end_line) == (2, 4)


def test_kinds_filter() -> None:
    source = "import time, random\ntime.time()\nrandom.random()\n"
    assert [t.kind for t in scan_source(source, kinds="random").touchpoints] == ["random"]
    assert [t.kind for t in scan_source(source, kinds=["time", "random"]).touchpoints] == [
        "time",
        "random",
    ]


def test_class_scope_does_not_leak_into_methods() -> None:
    source = """
        import time
        class Clock:
            time = staticmethod(lambda: 0)
            def now(self):
                return time.time()
    """
    assert found(source) == [("time.time", "time.time")]


def test_global_declaration_reaches_module_binding() -> None:
    source = """
        import random
        def reset():
            global random
            random = FakeRandom()
        def roll():
            return random.random()
    """
    # ``random`` is rebound somewhere in the module: ambiguous, so not reported
    assert found(source) == []


def test_comprehension_and_lambda_scopes() -> None:
    source = """
        import random
        rolls = [random.randint(1, 6) for random in range(3)]
        pick = lambda random: random.choice("ab")
        rolls2 = [random.randint(1, 6) for _ in range(3)]
    """
    assert found(source) == [("random.randint", "random.randint")]
