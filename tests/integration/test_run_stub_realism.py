"""Stubbed responses behave like real ones in every supported client, run by ``automock run``.

One plan (written by a person) serves a login that sets a cookie, a page that
answers only when that cookie comes back, a ``HEAD`` whose ``Content-Length``
names a large file, and a ``301`` to another stub. Each client's program prints
what it saw; the cookie must reach the response's and the session's cookies, the
header must be the stub's own (and ``HEAD`` have no body), and the redirect must
be followed to the second stub as the client does on its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from automock.cli import main

SHOP = "https://shop.example.com"
BIG = "https://files.example.com/big.bin"
OLD, NEW = "https://old.example.com/page", "https://new.example.com/page"

PROGRAMS = {
    "requests": f"""
        import requests
        s = requests.Session()
        r = s.post("{SHOP}/login", data={{"u": "ann"}})
        print("response-cookie", r.cookies.get("sid"))
        print("session-cookie", s.cookies.get("sid"), s.cookies.get("theme"))
        print("me", s.get("{SHOP}/me").json()["user"])
        h = requests.head("{BIG}")
        print("head", h.headers["Content-Length"], len(h.content))
        g = requests.get("{OLD}")
        print("redirect", g.status_code, g.url, g.json()["moved"], len(g.history))
    """,
    "httpx": f"""
        import httpx
        with httpx.Client(follow_redirects=True) as c:
            r = c.post("{SHOP}/login", data={{"u": "ann"}})
            print("response-cookie", r.cookies.get("sid"))
            print("session-cookie", c.cookies.get("sid"), c.cookies.get("theme"))
            print("me", c.get("{SHOP}/me").json()["user"])
            h = c.head("{BIG}")
            print("head", h.headers["Content-Length"], len(h.content))
            g = c.get("{OLD}")
            print("redirect", g.status_code, g.url, g.json()["moved"], len(g.history))
    """,
    "urllib": f"""
        import http.cookiejar, json, urllib.request
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        r = opener.open(urllib.request.Request("{SHOP}/login", data=b"u=ann", method="POST"))
        print("response-cookie", r.headers["Set-Cookie"].split(";")[0].split("=")[1])
        names = {{c.name: c.value for c in jar}}
        print("session-cookie", names.get("sid"), names.get("theme"))
        print("me", json.loads(opener.open("{SHOP}/me").read())["user"])
        h = opener.open(urllib.request.Request("{BIG}", method="HEAD"))
        print("head", h.headers["Content-Length"], len(h.read()))
        g = opener.open("{OLD}")
        print("redirect", g.status, g.url, json.loads(g.read())["moved"], 1)
    """,
    "aiohttp": f"""
        import asyncio, aiohttp
        async def main():
            async with aiohttp.ClientSession() as s:
                async with s.post("{SHOP}/login", data={{"u": "ann"}}) as r:
                    print("response-cookie", r.cookies["sid"].value)
                names = {{c.key: c.value for c in s.cookie_jar}}
                print("session-cookie", names.get("sid"), names.get("theme"))
                async with s.get("{SHOP}/me") as me:
                    print("me", (await me.json())["user"])
                async with s.head("{BIG}") as h:
                    print("head", h.headers["Content-Length"], len(await h.read()))
                async with s.get("{OLD}") as g:
                    body = await g.json()
                    print("redirect", g.status, g.url, body["moved"], len(g.history))
        asyncio.run(main())
    """,
}


def _plan() -> dict[str, object]:
    def stub(**data: object) -> dict[str, object]:
        return {"line": 1, "kind": "network", "api": "http", "strategy": "stub_http", "data": data}

    return {
        "automock": 1,
        "entries": [
            stub(
                method="POST",
                url=f"{SHOP}/login",
                headers={"Set-Cookie": "sid=abc123; Path=/; HttpOnly\ntheme=dark; Path=/prefs"},
                json={"ok": True},
            ),
            stub(
                method="GET",
                url=f"{SHOP}/me",
                request_headers={"Cookie": "sid=abc123"},
                json={"user": "ann"},
            ),
            stub(method="HEAD", url=BIG, headers={"Content-Length": "1048576"}, text="x" * 10),
            stub(method="GET", url=OLD, status=301, headers={"Location": NEW}),
            stub(method="GET", url=NEW, json={"moved": True}),
        ],
    }


@pytest.mark.parametrize("client", sorted(PROGRAMS))
def test_cookies_content_length_head_and_redirects_behave_like_a_server(
    client: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prog.py").write_text(dedent(PROGRAMS[client]))
    Path("plan.json").write_text(json.dumps(_plan()))
    code = main(["run", "prog.py", "--plan", "plan.json", "--json"])
    report = json.loads(capsys.readouterr().out)
    out = report["stdout"]
    assert code == 0, (report["stderr"][-1500:], report.get("unmocked"))
    assert "response-cookie abc123\n" in out
    assert "session-cookie abc123 dark\n" in out  # a two-line Set-Cookie sets two cookies
    assert "me ann\n" in out
    assert "head 1048576 0\n" in out
    assert f"redirect 200 {NEW} True 1\n" in out
