"""The API table: which qualified names are touchpoints, of which kind, and why.

This module is data. To teach the scanner a new API, add its fully qualified
name to the right ``_group`` call below (or a ``module.*`` wildcard that covers
every attribute of a module); :mod:`automock.analysis.catalog` holds the rest
(deterministic exceptions, the types calls return, and lookup).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from automock.analysis.model import Kind

__all__ = ["CATALOG", "Api"]


@dataclass(frozen=True, slots=True)
class Api:
    """What the scanner reports for one catalog name.

    ``pure_args``: when a call passes at least this many positional arguments
    (or any keyword in ``pure_kw``) and the first is not the literal ``None``,
    the call is deterministic and not reported (``random.Random(42)``,
    ``time.gmtime(0)``). ``0`` means the call is never deterministic.
    """

    kind: Kind
    reason: str
    pure_args: int = 0
    pure_kw: tuple[str, ...] = ()


def _group(kind: Kind, reason: str, *names: str, **flags: object) -> dict[str, Api]:
    api = Api(kind, reason, **flags)  # type: ignore[arg-type]
    return dict.fromkeys(names, api)


_SEED = {"pure_args": 1, "pure_kw": ("seed", "a", "x")}

_HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options", "request")

_RANDOM_FUNCS = (
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "triangular",
    "gauss",
    "normalvariate",
    "lognormvariate",
    "expovariate",
    "vonmisesvariate",
    "gammavariate",
    "betavariate",
    "paretovariate",
    "weibullvariate",
    "binomialvariate",
    "getrandbits",
    "randbytes",
)

CATALOG: Final[Mapping[str, Api]] = {
    # -- time -------------------------------------------------------------
    **_group(
        "time",
        "reads the clock",
        *(
            f"time.{n}{suffix}"
            for n in ("time", "monotonic", "perf_counter", "process_time", "thread_time")
            for suffix in ("", "_ns")
        ),
        "time.clock_gettime",
        "time.clock_gettime_ns",
    ),
    **_group(
        "time",
        "reads the wall clock when given no timestamp",
        "time.gmtime",
        "time.localtime",
        "time.ctime",
        "time.asctime",
        pure_args=1,
    ),
    **_group("time", "formats the current time when given no struct", "time.strftime", pure_args=2),
    **_group("time", "sleeps in real time", "time.sleep", "asyncio.sleep"),
    **_group(
        "time",
        "reads the wall clock",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    ),
    # -- random / entropy --------------------------------------------------
    **_group(
        "random", "draws from the global random generator", *(f"random.{n}" for n in _RANDOM_FUNCS)
    ),
    **_group("random", "reads the global random generator's state", "random.getstate"),
    **_group(
        "random",
        "seeds the global generator from OS entropy when given no seed",
        "random.seed",
        **_SEED,
    ),
    **_group("random", "creates a generator seeded from OS entropy", "random.Random", **_SEED),
    **_group(
        "random",
        "draws from a generator seeded from OS entropy",
        *(f"random.Random.{n}" for n in _RANDOM_FUNCS),
    ),
    **_group(
        "random",
        "draws from OS entropy (cannot be seeded)",
        "random.SystemRandom",
        "random.SystemRandom.*",
    ),
    **_group(
        "random", "draws from OS entropy", "secrets.*", "os.urandom", "os.getrandom", "uuid.uuid4"
    ),
    **_group(
        "random",
        "uses the clock, the MAC address and entropy",
        "uuid.uuid1",
        "uuid.uuid6",
        "uuid.uuid7",
    ),
    **_group("random", "draws from numpy's global random generator", "numpy.random.*"),
    **_group(
        "random",
        "creates a numpy generator seeded from OS entropy",
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.seed",
        "numpy.random.SeedSequence",
        *(f"numpy.random.{b}" for b in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")),
        **_SEED,
    ),
    **_group(
        "random",
        "draws from a numpy generator seeded from OS entropy",
        "numpy.random.Generator.*",
        "numpy.random.RandomState.*",
    ),
    # -- network -------------------------------------------------------------
    **_group("network", "sends an HTTP request", *(f"requests.{v}" for v in _HTTP_VERBS)),
    **_group(
        "network",
        "sends an HTTP request",
        "requests.api.request",
        *(f"requests.Session.{v}" for v in _HTTP_VERBS),
    ),
    **_group(
        "network",
        "opens an HTTP session",
        "requests.Session",
        "requests.session",
        "requests.sessions.Session",
    ),
    **_group("network", "sends an HTTP request", *(f"httpx.{v}" for v in (*_HTTP_VERBS, "stream"))),
    **_group(
        "network",
        "sends an HTTP request",
        *(
            f"httpx.{c}.{v}"
            for c in ("Client", "AsyncClient")
            for v in (*_HTTP_VERBS, "stream", "send")
        ),
    ),
    **_group("network", "opens an HTTP client", "httpx.Client", "httpx.AsyncClient"),
    **_group(
        "network",
        "opens a URL",
        "urllib.request.urlopen",
        "urllib.request.urlretrieve",
        "urllib.request.build_opener",
        "urllib.request.OpenerDirector.open",
    ),
    **_group("network", "builds an HTTP request for urlopen", "urllib.request.Request"),
    **_group("network", "fetches a feed when given a URL", "feedparser.parse"),
    **_group(
        "network",
        "opens an HTTP connection",
        "http.client.HTTPConnection",
        "http.client.HTTPSConnection",
        "urllib3.PoolManager",
        "urllib3.request",
    ),
    **_group(
        "network",
        "opens a socket",
        "socket.socket",
        "socket.create_connection",
        "socket.create_server",
        "socket.socketpair",
        "socket.fromfd",
    ),
    **_group(
        "network",
        "resolves a host name over DNS",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.gethostbyname_ex",
        "socket.gethostbyaddr",
        "socket.getfqdn",
        "socket.getnameinfo",
    ),
    **_group("network", "opens an HTTP client session", "aiohttp.ClientSession", "aiohttp.request"),
    **_group(
        "network",
        "sends an HTTP request",
        *(f"aiohttp.ClientSession.{v}" for v in (*_HTTP_VERBS, "ws_connect")),
    ),
    **_group(
        "network",
        "opens a websocket",
        "websockets.connect",
        "websockets.serve",
        "websockets.client.connect",
        "websockets.asyncio.client.connect",
        "websockets.sync.client.connect",
    ),
    **_group(
        "network",
        "opens a network connection",
        "ftplib.FTP",
        "ftplib.FTP_TLS",
        "smtplib.SMTP",
        "smtplib.SMTP_SSL",
        "asyncio.open_connection",
    ),
    # -- database --------------------------------------------------------------
    **_group(
        "database",
        "connects to a database",
        "sqlite3.connect",
        "psycopg.connect",
        "psycopg.Connection.connect",
        "psycopg.AsyncConnection.connect",
        "psycopg2.connect",
        "psycopg_pool.ConnectionPool",
        "asyncpg.connect",
        "asyncpg.create_pool",
        "aiosqlite.connect",
        "pymysql.connect",
        "mysql.connector.connect",
    ),
    **_group(
        "database",
        "creates a database engine",
        "sqlalchemy.create_engine",
        "sqlalchemy.ext.asyncio.create_async_engine",
    ),
    **_group(
        "database",
        "connects to Redis",
        "redis.Redis",
        "redis.StrictRedis",
        "redis.from_url",
        "redis.Redis.from_url",
        "redis.asyncio.Redis",
        "redis.asyncio.from_url",
    ),
    **_group(
        "database",
        "connects to MongoDB",
        "pymongo.MongoClient",
        "motor.motor_asyncio.AsyncIOMotorClient",
    ),
    # -- environment -------------------------------------------------------------
    **_group(
        "environment",
        "reads the process environment",
        "os.environ",
        "os.environb",
        "os.getenv",
        "os.getenvb",
    ),
    **_group("environment", "reads the process id", "os.getpid", "os.getppid"),
    **_group(
        "environment",
        "reads the user or host identity",
        "os.getuid",
        "os.getlogin",
        "getpass.getuser",
        "socket.gethostname",
        "platform.node",
    ),
    **_group(
        "environment",
        "reads the locale",
        "locale.getlocale",
        "locale.getdefaultlocale",
        "locale.getpreferredencoding",
        "locale.getencoding",
    ),
    **_group(
        "environment", "reads the machine's CPU count", "os.cpu_count", "multiprocessing.cpu_count"
    ),
    **_group(
        "environment",
        "str/bytes hashes vary per process unless PYTHONHASHSEED is set",
        "builtins.hash",
    ),
    # -- process -------------------------------------------------------------------
    **_group(
        "process",
        "starts a subprocess",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "os.system",
        "os.popen",
        "os.posix_spawn",
        "os.posix_spawnp",
        "asyncio.create_subprocess_exec",
        "asyncio.create_subprocess_shell",
        *(f"os.{p}" for p in ("execv", "execve", "execl", "execle", "execlp", "execvp", "execvpe")),
        *(f"os.{p}" for p in ("spawnv", "spawnve", "spawnl", "spawnle", "spawnlp", "spawnvp")),
    ),
    **_group("process", "forks the process", "os.fork", "os.forkpty"),
    **_group(
        "process",
        "starts a thread (scheduling order varies)",
        "threading.Thread",
        "threading.Timer",
        "_thread.start_new_thread",
    ),
    **_group(
        "process",
        "starts worker processes",
        "multiprocessing.Process",
        "multiprocessing.Pool",
        "multiprocessing.Manager",
        "multiprocessing.get_context",
        "multiprocessing.pool.Pool",
        "multiprocessing.pool.ThreadPool",
    ),
    **_group(
        "process",
        "runs work in a pool (completion order varies)",
        "concurrent.futures.ThreadPoolExecutor",
        "concurrent.futures.ProcessPoolExecutor",
    ),
    # -- filesystem ----------------------------------------------------------------
    **_group(
        "filesystem",
        "lists a directory (order depends on the filesystem)",
        "os.listdir",
        "os.scandir",
        "os.walk",
        "os.fwalk",
        "glob.glob",
        "glob.iglob",
        "pathlib.Path.iterdir",
        "pathlib.Path.glob",
        "pathlib.Path.rglob",
        "pathlib.Path.walk",
    ),
    **_group(
        "filesystem",
        "reads file timestamps",
        "os.path.getmtime",
        "os.path.getatime",
        "os.path.getctime",
        "os.stat",
        "os.lstat",
        "pathlib.Path.stat",
        "pathlib.Path.lstat",
    ),
    **_group(
        "filesystem",
        "creates a randomly named temporary file",
        "tempfile.mkstemp",
        "tempfile.mkdtemp",
        "tempfile.mktemp",
        "tempfile.NamedTemporaryFile",
        "tempfile.TemporaryFile",
        "tempfile.SpooledTemporaryFile",
        "tempfile.TemporaryDirectory",
    ),
    **_group("filesystem", "reads the temp directory from the environment", "tempfile.gettempdir"),
}
