"""The Ray backend on a real two-node Ray cluster (``ray.cluster_utils.Cluster``) on this host.

One cluster for the module (starting one costs seconds): a head and a worker node, one CPU
each. The node-kill test adds a third node of its own and kills it mid-batch. Skipped, with
the reason, only where Ray is not installed (``pip install 'automock-sandbox[ray]'``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from automock.cli import main
from automock.errors import SandboxError
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.pool import execute_many
from automock.sandbox.batch.task import BatchSettings, sample_seed

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'automock-sandbox[ray]'")
cluster_utils = pytest.importorskip("ray.cluster_utils")

pytestmark = pytest.mark.ray

# a lost node is noticed within ~1 s rather than Ray's default ~30 s (docs/distributed.md)
_FAST_FAULTS = {"health_check_period_ms": 300, "health_check_failure_threshold": 3}
TEST = "def check(f):\n    assert f(3) == 9\n"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    made = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "_system_config": _FAST_FAULTS},
    )
    made.add_node(num_cpus=1)
    ray.init(address=made.address, log_to_driver=False)
    try:
        yield made
    finally:
        ray.shutdown()
        made.shutdown()


def _mixed(count: int) -> list[Candidate]:
    """Programs and pairs that pass, fail, crash and print their own seeded draw."""
    kinds = [
        "import random\nprint(random.random())\n",
        "raise SystemExit(3)\n",
        "raise ValueError('no')\n",
    ]
    out = []
    for i in range(count):
        if i % 4 == 3:
            body = "    return x * x\n" if i % 8 == 3 else "    return x + x\n"
            out.append(Candidate(f"pair/{i}", i, "def sq(x):\n" + body, TEST, "sq"))
        else:
            out.append(Candidate(f"prog/{i % 3}", i, kinds[i % 3]))
    return out


def _verdicts(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.task_id, r.index, str(r.status), r.exit_code, r.seed, r.stdout) for r in results]


@pytest.mark.parametrize("driver_node", [True, False], ids=["driver-pool", "actors-only"])
def test_same_verdicts_seeds_and_outputs_as_the_local_pool(cluster: Any, driver_node: bool) -> None:
    from automock.sandbox.batch.ray_backend import RayOptions, execute_many_ray

    candidates = _mixed(24)
    seen: list[Any] = []
    remote = execute_many_ray(
        candidates,
        settings=BatchSettings(timeout=10, seed=7),
        options=RayOptions(driver_node=driver_node),
        on_result=seen.append,
    )
    local = execute_many(candidates, timeout=10, seed=7, workers=2)
    assert _verdicts(remote) == _verdicts(local)
    assert Counter((r.task_id, r.index) for r in seen) == Counter(
        (c.task_id, c.index) for c in candidates
    )
    assert {str(r.status) for r in remote} == {"passed", "failed", "error"}
    assert all(r.seed == sample_seed(7, r.task_id, r.index) for r in remote)


def test_a_killed_node_loses_no_candidate_and_repeats_none(
    cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from automock.sandbox.batch.ray_backend import RayOptions, execute_many_ray

    doomed = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    # each candidate spins ~0.1 s of real CPU, so the doomed node holds chunks when it dies
    spin = "n = 0\nfor _ in range(400_000):\n    n += 1\nprint(n)\n"
    candidates = [Candidate(f"spin/{i}", i, spin) for i in range(36)]
    seen: list[Any] = []

    def on_result(result: Any) -> None:
        seen.append(result)
        if len(seen) == 4:
            cluster.remove_node(doomed, allow_graceful=False)

    results = execute_many_ray(
        candidates,
        settings=BatchSettings(timeout=20),
        options=RayOptions(chunk=3),
        on_result=on_result,
    )
    assert Counter((r.task_id, r.index) for r in seen) == Counter(
        (c.task_id, c.index) for c in candidates
    )
    assert [(str(r.status), r.stdout) for r in results] == [("passed", "400000\n")] * 36
    # whether the doomed node still held a chunk when it died depends on timing (on a quiet
    # machine the other actors may have taken them all): what must hold either way is above
    capsys.readouterr()


def test_a_node_without_a_required_layer_refuses_to_join(
    cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from automock.sandbox.batch.ray_backend import RayOptions, execute_many_ray

    with pytest.raises(SandboxError, match="every node was lost or refused"):
        execute_many_ray(["print(1)"], options=RayOptions(required=frozenset({"no-such-layer"})))
    err = capsys.readouterr().err
    assert err.count("refuses to join the batch: the sandbox lacks no-such-layer") == 2


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_cli_streams_lines_and_resume_runs_only_the_rest(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = tmp_path / "samples"
    samples.mkdir()
    for i in range(8):
        (samples / f"c{i}.py").write_text(f"print({i})\n" if i != 5 else "raise SystemExit(1)\n")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(samples), "--backend", "ray", "--jsonl", str(out)]) == 0
    full = _lines(out)
    assert full[0]["record"] == "layers"
    assert sorted(r["task_id"] for r in full[1:]) == [f"c{i}" for i in range(8)]
    # an interrupted batch: three whole lines, then a torn one
    kept = out.read_text().splitlines(keepends=True)[:4]
    out.write_text("".join(kept) + '{"schema": "autom')
    capsys.readouterr()
    assert main(["batch", str(samples), "--backend", "ray", "--jsonl", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "resuming: 3 candidates already in" in err and "5 to run" in err
    resumed = _lines(out)
    assert out.read_text().startswith("".join(kept))  # the earlier lines stay as they were
    assert sorted(r["task_id"] for r in resumed[1:]) == [f"c{i}" for i in range(8)]
    assert {r["task_id"]: r["status"] for r in resumed[1:]} == {
        r["task_id"]: r["status"] for r in full[1:]
    }
    assert "8 candidates: 1 failed, 7 passed" in err


def test_an_interrupted_batch_leaves_no_pool_of_the_driver(cluster: Any) -> None:
    import glob
    import os
    import tempfile

    from automock.sandbox.batch.lanes import POOL_PREFIX
    from automock.sandbox.batch.ray_backend import RayOptions, execute_many_ray

    spin = "n = 0\nfor _ in range(200_000):\n    n += 1\nprint(n)\n"
    candidates = [Candidate(f"spin/{i}", i, spin) for i in range(24)]

    def interrupt(result: Any) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute_many_ray(candidates, options=RayOptions(chunk=2), on_result=interrupt)
    pattern = os.path.join(tempfile.gettempdir(), f"{POOL_PREFIX}{os.getpid()}-*")
    assert glob.glob(pattern) == []
