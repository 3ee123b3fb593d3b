"""The drafting loop's cost with the model, as a multiple of a single-shot draft.

One small network program that no rules plan serves (it wants a status only a reader of
the code knows) is run with ``automock run FILE --json`` in a fresh directory per
configuration:

- ``single``: ``--draft-rounds 0`` (the draft is used as drafted: the baseline);
- ``rules``: the loop with the rules (default 3 rounds);
- ``llm-never``: ``--drafter llm``, a model that answers the plan it was shown unchanged;
- ``llm-fixes``: ``--drafter llm``, a model that serves the run after seeing its failure.

The model is replayed (tests/llm_replay.py: respx routes under the real SDK), so its
latency is zero here: the figures are automock's own cost (trial runs, prompts, SDK), and
a real model adds its answer time once per request counted. Each program text is unique
per repetition, so the answer cache never serves.

    python benchmarks/llm_loop_cost.py [--provider anthropic|openai] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROGRAM = """\
# repetition {n}
import sys
import requests

data = requests.get("https://api.example.com/status").json()
if data["state"] != "ready":
    sys.exit(f"service not ready: {{data['state']}}")
print("ready")
"""


def _policy(provider: str, fixes: bool) -> Any:
    from tests.llm_replay import last_turn, tried

    def policy(request: dict[str, Any], n: int) -> list[dict[str, Any]]:
        entries = tried(provider, request)
        if fixes and "service not ready" in last_turn(request):
            for entry in entries:
                if entry["strategy"] == "stub_http":
                    entry["data"]["json"] = {"state": "ready"}
        return entries

    return policy


def one(config: str, provider: str, n: int) -> tuple[float, int, int]:
    """(seconds, exit code, model requests) of one ``automock run``."""
    import respx

    from automock.cli import main
    from tests.llm_replay import Api, routed

    flags = {"single": ["--draft-rounds", "0"], "rules": []}.get(config, ["--drafter", "llm"])
    with tempfile.TemporaryDirectory() as tmp, routed(respx.mock(assert_all_called=False)) as r:
        api = Api(r, provider).plans(_policy(provider, config == "llm-fixes"))
        Path(tmp, "status.py").write_text(PROGRAM.format(n=f"{config} {n} {time.time_ns()}"))
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            out, err = io.StringIO(), io.StringIO()
            start = time.perf_counter()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["run", "status.py", "--json", "--timeout", "20", *flags])
            took = time.perf_counter() - start
        finally:
            os.chdir(cwd)
        json.loads(out.getvalue())
        return took, code, api.calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--provider", choices=("anthropic", "openai"), default="anthropic")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.pop("AUTOMOCK_DRAFTER", None)
    if args.provider == "openai":
        os.environ.update(AUTOMOCK_LLM="openai", OPENAI_API_KEY="bench-key")
    else:
        os.environ["ANTHROPIC_API_KEY"] = "bench-key"
    configs = ("single", "rules", "llm-never", "llm-fixes")
    times: dict[str, list[float]] = {c: [] for c in configs}
    seen: dict[str, tuple[int, int]] = {}
    for n in range(args.repeat):  # interleaved, so load drifts hit every configuration
        for config in configs:
            took, code, calls = one(config, args.provider, n)
            times[config].append(took)
            seen[config] = (code, calls)
    base = statistics.median(times["single"])
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"provider {args.provider}, {args.repeat} repetitions, load {' '.join(load)}")
    for config in configs:
        med = statistics.median(times[config])
        code, calls = seen[config]
        print(
            f"{config:>10}: median {med:6.2f} s  x{med / base:4.2f} of single-shot  "
            f"exit {code}  model requests {calls}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
