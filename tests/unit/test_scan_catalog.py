"""Each catalog family is found, with its kind and fully qualified api."""

from __future__ import annotations

import pytest

from automock.analysis.catalog import CATALOG, RETURNS, lookup
from automock.analysis.model import KINDS
from automock.analysis.scanner import scan_source

CASES = [
    # time
    ("import time\ntime.time()", "time", "time.time"),
    ("import time\ntime.time_ns()", "time", "time.time_ns"),
    ("import time\ntime.monotonic()", "time", "time.monotonic"),
    ("import time\ntime.perf_counter()", "time", "time.perf_counter"),
    ("import time\ntime.process_time()", "time", "time.process_time"),
    ("import time\ntime.sleep(1)", "time", "time.sleep"),
    ("import time\ntime.gmtime()", "time", "time.gmtime"),
    ("import time\ntime.localtime()", "time", "time.localtime"),
    ("import time\ntime.ctime()", "time", "time.ctime"),
    ("import time\ntime.strftime('%Y')", "time", "time.strftime"),
    ("import datetime\ndatetime.datetime.now()", "time", "datetime.datetime.now"),
    ("import datetime\ndatetime.datetime.utcnow()", "time", "datetime.datetime.utcnow"),
    ("import datetime\ndatetime.datetime.today()", "time", "datetime.datetime.today"),
    ("import datetime\ndatetime.date.today()", "time", "datetime.date.today"),
    ("import asyncio\nasync def f():\n    await asyncio.sleep(1)", "time", "asyncio.sleep"),
    # random / entropy
    ("import random\nrandom.random()", "random", "random.random"),
    ("import random\nrandom.shuffle(x)", "random", "random.shuffle"),
    ("import random\nrandom.choice(x)", "random", "random.choice"),
    ("import random\nrandom.randint(1, 6)", "random", "random.randint"),
    ("import random\nrandom.sample(x, 2)", "random", "random.sample"),
    ("import random\nrandom.seed()", "random", "random.seed"),
    ("import random\nrandom.Random()", "random", "random.Random"),
    ("import random\nrandom.SystemRandom()", "random", "random.SystemRandom"),
    ("import secrets\nsecrets.token_hex(8)", "random", "secrets.token_hex"),
    ("import secrets\nsecrets.choice(x)", "random", "secrets.choice"),
    ("import uuid\nuuid.uuid1()", "random", "uuid.uuid1"),
    ("import uuid\nuuid.uuid4()", "random", "uuid.uuid4"),
    ("import os\nos.urandom(8)", "random", "os.urandom"),
    ("import os\nos.getrandom(8)", "random", "os.getrandom"),
    ("import numpy\nnumpy.random.rand(3)", "random", "numpy.random.rand"),
    ("import numpy\nnumpy.random.default_rng()", "random", "numpy.random.default_rng"),
    ("import numpy\nnumpy.random.RandomState()", "random", "numpy.random.RandomState"),
    # network
    ("import requests\nrequests.get(u)", "network", "requests.get"),
    ("import requests\nrequests.post(u, json={})", "network", "requests.post"),
    ("import requests\nrequests.Session()", "network", "requests.Session"),
    ("import httpx\nhttpx.get(u)", "network", "httpx.get"),
    ("import httpx\nhttpx.Client()", "network", "httpx.Client"),
    ("import httpx\nhttpx.AsyncClient()", "network", "httpx.AsyncClient"),
    ("import urllib.request\nurllib.request.urlopen(u)", "network", "urllib.request.urlopen"),
    ("import urllib.request\nurllib.request.Request(u)", "network", "urllib.request.Request"),
    ("import http.client\nhttp.client.HTTPConnection(h)", "network", "http.client.HTTPConnection"),
    (
        "import http.client\nhttp.client.HTTPSConnection(h)",
        "network",
        "http.client.HTTPSConnection",
    ),
    ("import socket\nsocket.socket()", "network", "socket.socket"),
    ("import socket\nsocket.create_connection(a)", "network", "socket.create_connection"),
    ("import socket\nsocket.getaddrinfo(h, 80)", "network", "socket.getaddrinfo"),
    ("import socket\nsocket.gethostbyname(h)", "network", "socket.gethostbyname"),
    ("import aiohttp\naiohttp.ClientSession()", "network", "aiohttp.ClientSession"),
    ("import aiohttp\naiohttp.request('GET', u)", "network", "aiohttp.request"),
    ("import websockets\nwebsockets.connect(u)", "network", "websockets.connect"),
    # database
    ("import sqlite3\nsqlite3.connect('x.db')", "database", "sqlite3.connect"),
    ("import psycopg\npsycopg.connect(dsn)", "database", "psycopg.connect"),
    ("import psycopg2\npsycopg2.connect(dsn)", "database", "psycopg2.connect"),
    ("import sqlalchemy\nsqlalchemy.create_engine(u)", "database", "sqlalchemy.create_engine"),
    ("import redis\nredis.Redis()", "database", "redis.Redis"),
    ("import redis\nredis.StrictRedis()", "database", "redis.StrictRedis"),
    ("import redis\nredis.from_url(u)", "database", "redis.from_url"),
    ("import pymongo\npymongo.MongoClient(u)", "database", "pymongo.MongoClient"),
    # environment
    ("import os\nos.environ['HOME']", "environment", "os.environ"),
    ("import os\nos.environ.get('HOME')", "environment", "os.environ.get"),
    ("import os\nos.getenv('HOME')", "environment", "os.getenv"),
    ("import os\nos.getpid()", "environment", "os.getpid"),
    ("import os\nos.getppid()", "environment", "os.getppid"),
    ("import locale\nlocale.getlocale()", "environment", "locale.getlocale"),
    ("hash('text')", "environment", "builtins.hash"),
    # process
    ("import subprocess\nsubprocess.run(['ls'])", "process", "subprocess.run"),
    ("import subprocess\nsubprocess.Popen(['ls'])", "process", "subprocess.Popen"),
    ("import subprocess\nsubprocess.check_output(['ls'])", "process", "subprocess.check_output"),
    ("import os\nos.system('ls')", "process", "os.system"),
    ("import os\nos.popen('ls')", "process", "os.popen"),
    ("import os\nos.fork()", "process", "os.fork"),
    ("import threading\nthreading.Thread(target=f)", "process", "threading.Thread"),
    ("import multiprocessing\nmultiprocessing.Pool(2)", "process", "multiprocessing.Pool"),
    ("import multiprocessing\nmultiprocessing.Process()", "process", "multiprocessing.Process"),
    (
        "import concurrent.futures\nconcurrent.futures.ThreadPoolExecutor()",
        "process",
        "concurrent.futures.ThreadPoolExecutor",
    ),
    (
        "from concurrent.futures import ProcessPoolExecutor\nProcessPoolExecutor()",
        "process",
        "concurrent.futures.ProcessPoolExecutor",
    ),
    # filesystem
    ("import os\nos.listdir('.')", "filesystem", "os.listdir"),
    ("import os\nos.scandir('.')", "filesystem", "os.scandir"),
    ("import os\nos.walk('.')", "filesystem", "os.walk"),
    ("import glob\nglob.glob('*.py')", "filesystem", "glob.glob"),
    ("import glob\nglob.iglob('*.py')", "filesystem", "glob.iglob"),
    ("import os\nos.path.getmtime(p)", "filesystem", "os.path.getmtime"),
    ("import os\nos.stat(p)", "filesystem", "os.stat"),
    ("import tempfile\ntempfile.mkdtemp()", "filesystem", "tempfile.mkdtemp"),
    ("import tempfile\ntempfile.NamedTemporaryFile()", "filesystem", "tempfile.NamedTemporaryFile"),
    ("from pathlib import Path\nPath('.').iterdir()", "filesystem", "pathlib.Path.iterdir"),
    ("from pathlib import Path\nPath('.').rglob('*.py')", "filesystem", "pathlib.Path.rglob"),
    (
        "from pathlib import Path\nroot = Path('.')\n(root / 'src').glob('*')",
        "filesystem",
        "pathlib.Path.glob",
    ),
]


@pytest.mark.parametrize(("source", "kind", "api"), CASES, ids=[c[2] for c in CASES])
def test_catalog_family_is_found(source: str, kind: str, api: str) -> None:
    found = scan_source(source).touchpoints
    assert [(t.kind, t.api) for t in found] == [(kind, api)]


def test_every_kind_is_covered_by_the_cases() -> None:
    assert {kind for _, kind, _ in CASES} == set(KINDS)


def test_catalog_entries_are_well_formed() -> None:
    for name, api in CATALOG.items():
        assert api.kind in KINDS, name
        assert api.reason and api.reason == api.reason.strip(), name
        assert name == name.strip() and " " not in name, name
    for source, target in RETURNS.items():
        assert "." in source and "." in target


def test_lookup_prefers_longest_prefix_and_exact_over_wildcard() -> None:
    assert lookup("os.environ.get") == ("os.environ", CATALOG["os.environ"])
    found = lookup("numpy.random.default_rng")
    assert found is not None and found[0] == "numpy.random.default_rng"
    found = lookup("numpy.random.normal")
    assert found is not None and found[0] == "numpy.random.*"
    assert lookup("numpy.random.Generator") is None
    assert lookup("datetime.datetime") is None
    assert lookup("os.path.join") is None
