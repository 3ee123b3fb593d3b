"""The catalog of well-known public APIs (``drafting/known_apis.json``) is well formed."""

from __future__ import annotations

import json
from pathlib import Path

import automock.drafting as drafting
from automock.drafting.catalog import known_body

CATALOG = json.loads((Path(drafting.__file__).parent / "known_apis.json").read_text("utf-8"))


def _url(host: str, template: str, query: dict[str, str]) -> str:
    path = template.replace("**", "rest").replace("*", "x1").replace("?", "1") or "/"
    asked = "&".join(f"{k}={v or 'x'}" for k, v in query.items())
    return f"https://{host}{path}" + (f"?{asked}" if asked else "")


def test_every_entry_is_reached_by_one_of_its_paths() -> None:
    assert len(CATALOG) >= 100
    for entry in CATALOG:
        assert entry["hosts"] and entry["paths"] and "body" in entry, entry["api"]
        assert all(p == "" or p.startswith("/") for p in entry["paths"]), entry["api"]
        reached = {
            found.api
            for host in entry["hosts"]
            for path in entry["paths"]
            if (found := known_body(_url(host, path, entry.get("query", {})))) is not None
        }
        assert entry["api"] in reached, (entry["api"], reached)


def test_a_request_elsewhere_is_not_known() -> None:
    assert known_body("https://api.example.com/users/1") is None
    assert known_body("https://api.github.com.example.net/users/1") is None
    assert known_body("not a url") is None
