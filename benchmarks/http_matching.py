"""Cost of choosing the most specific stub among many, per ``requests.get``.

Every stub is checked against each request (canonical URL, then the request
matchers) and the highest-ranked match serves. This times ``requests.get``
served by ``mocked_network`` with 1 stub (the baseline, same run) and with N
stubs of every mode (exact / prefix / regex, some with query matchers), and, for
scale, the ``responses`` library with the same N registered URLs.

Target: N=100 stubs cost at most 1.5x the 1-stub baseline per request.

Run: ``python benchmarks/http_matching.py [N] [REQUESTS]``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import per_call_us as _per_call_us

API = "https://api.example.com"
TARGET = 1.5


def _stubs(n: int) -> list[object]:
    from automock.plan.model import HttpStub

    stubs = []
    for i in range(n):
        mode = ("exact", "prefix", "regex")[i % 3]
        url = f"{API}/r{i}/items" if mode != "regex" else rf"^https://api\.example\.com/r{i}/[^/]+$"
        query = {"page": str(i)} if i % 4 == 0 else {}
        stubs.append(HttpStub(method="GET", url=url, match=mode, query=query, json={"i": i}))
    return stubs


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100
    calls = int(argv[1]) if len(argv) > 1 else 300
    import requests
    import responses

    from automock.plan.model import HttpStub
    from automock.runtime.http import mocked_network

    url = f"{API}/r{n - 2}/items?page=x"  # a prefix stub near the end of the plan
    one = [HttpStub(method="GET", url=f"{API}/r{n - 2}/items", json={"i": 0})]
    with mocked_network(one):
        base = _per_call_us(lambda: requests.get(url), calls)
    with mocked_network(_stubs(n)):
        many = _per_call_us(lambda: requests.get(url), calls)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for i in range(n):
            mock.get(f"{API}/r{i}/items", json={"i": i})
        ref = _per_call_us(lambda: requests.get(url), calls)
    ratio = many / base
    print(f"requests.get served by mocked_network, 1 stub  : {base:8.1f} us (baseline)")
    print(f"requests.get served by mocked_network, {n} stubs: {many:8.1f} us")
    print(f"requests.get served by responses, {n} URLs      : {ref:8.1f} us (for scale)")
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    print(f"target <= {TARGET:.1f}x baseline; figure {ratio:.2f}x: {verdict}")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
