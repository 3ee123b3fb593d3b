"""Drafting on code written the way real tools are (issue 25's package apps).

Each test is a shape one of the apps under examples/ hit: a fallback held in a
constant, a URL built by a method from what its caller passes, a body a
method returns and its caller reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from textwrap import dedent

import pytest
from bs4 import BeautifulSoup

from automock.cli import main
from automock.drafting import draft


def test_an_environment_default_held_in_a_constant_is_drafted_as_that_constant() -> None:
    plan = draft(
        dedent(
            """
            import os
            DEFAULT_TOPICS = "science,climate"
            BASE = "https://news.example.com"
            topics = os.environ.get("DIGEST_TOPICS", DEFAULT_TOPICS)
            api = os.getenv("NEWS_API", BASE + "/api")
            """
        )
    )
    assert plan.env["DIGEST_TOPICS"] == "science,climate"
    assert plan.env["NEWS_API"] == "https://news.example.com/api"
    entries = {e.data["name"]: e for e in plan.entries}
    assert entries["DIGEST_TOPICS"].guessed == ()


def test_a_method_building_its_url_from_what_self_calls_pass_gets_a_stub() -> None:
    plan = draft(
        dedent(
            """
            import requests

            class Feed:
                def __init__(self, base):
                    self.base = base
                    self.session = requests.Session()

                def _get_json(self, path, params):
                    r = self.session.get(f"{self.base}{path}", params=params)
                    return r.json()

                def latest(self, topic):
                    return self._get_json(f"/v1/topics/{topic}/articles", {"limit": 5})
            """
        )
    )
    (stub,) = plan.http_stubs()
    assert stub.match == "regex"
    assert "/v1/topics/" in stub.url and "/articles" in stub.url


def test_keys_read_on_what_a_method_returns_shape_the_stub_body() -> None:
    plan = draft(
        dedent(
            """
            import requests

            def to_item(raw):
                return (int(raw["id"]), raw["title"].strip(), float(raw["score"]))

            class Feed:
                session = requests.Session()

                def _get_json(self, url):
                    response = self.session.get(url)
                    response.raise_for_status()
                    return response.json()

                def latest(self):
                    payload = self._get_json("https://news.example.com/latest")
                    return [to_item(item) for item in payload.get("articles", [])]
            """
        )
    )
    (stub,) = plan.http_stubs()
    assert isinstance(stub.json, dict)
    (first, *_) = stub.json["articles"]
    assert {"id", "title", "score"} <= set(first)


def test_a_url_assigned_once_literally_and_then_from_the_response_is_stubbed() -> None:
    plan = draft(
        dedent(
            """
            import httpx
            client = httpx.Client(base_url="https://catalog.example.com")
            url, params = "/v2/products", {"page_size": 100}
            while url is not None:
                page = client.get(url, params=params).json()
                print(len(page["items"]))
                url, params = page["next"], None
            """
        )
    )
    (stub,) = plan.http_stubs()
    assert stub.url.endswith("/v2/products(?:[?#]|$)")
    first, last = stub.sequence  # a page linking to the next, then the last page
    assert isinstance(first.json, dict) and re.search(stub.url, first.json["next"])
    assert isinstance(last.json, dict) and last.json["next"] is None


def test_a_request_made_inside_a_retry_thunk_still_shapes_its_body() -> None:
    plan = draft(
        dedent(
            """
            import time
            import httpx

            def retrying(call, attempts=3):
                for attempt in range(attempts):
                    response = call()
                    if response.status_code < 500:
                        return response
                    time.sleep(attempt)
                return response

            client = httpx.Client()
            response = retrying(lambda: client.post("https://shop.example.com/login", json={}))
            print(response.json()["user"]["display_name"])
            """
        )
    )
    (stub,) = plan.http_stubs()
    assert stub.method == "POST"
    assert isinstance(stub.json, dict) and "display_name" in stub.json["user"]


def test_a_cookie_the_code_looks_for_is_set_by_the_response_before_it() -> None:
    plan = draft(
        dedent(
            """
            import httpx
            SESSION = "catalog_session"

            class API:
                def __init__(self):
                    self.client = httpx.Client(base_url="https://catalog.example.com")

                def login(self):
                    self.client.post("/v2/login", json={"user": "me"})
                    if SESSION not in self.client.cookies:
                        raise RuntimeError("no session")

            r = httpx.get("https://shop.example.com/start")
            print(r.cookies["csrftoken"])
            """
        )
    )
    by_method = {s.method: s for s in plan.http_stubs()}
    assert by_method["POST"].headers["Set-Cookie"].startswith("catalog_session=")
    assert by_method["GET"].headers["Set-Cookie"].startswith("csrftoken=")
    assert "catalog_session" not in by_method["GET"].headers["Set-Cookie"]


def test_a_compiled_regex_searched_over_a_scraped_text_shapes_that_text() -> None:
    plan = draft(
        dedent(
            r"""
            import re
            import requests
            from bs4 import BeautifulSoup

            AMOUNT = re.compile(r"(\d+)k")
            soup = BeautifulSoup(requests.get("https://jobs.example.org/").text, "html.parser")
            for card in soup.select("article.job"):
                title, link = card.select_one("h2.title"), card.select_one("a.apply")
                pay = card.select_one("span.salary").get_text()
                print(title.get_text(), link["href"], AMOUNT.findall(pay))
            """
        )
    )
    (stub,) = plan.http_stubs()
    page = BeautifulSoup(stub.text or "", "html.parser")
    cards = page.select("article.job")
    assert cards
    for card in cards:
        assert re.search(r"\d+k", card.select_one("span.salary").get_text())
        assert card.select_one("a.apply").get("href")


def test_a_url_and_a_page_pass_through_a_parsing_module_to_a_fetching_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "jobs/__init__.py": "",
        "jobs/fetch.py": """
            import urllib.request
            from bs4 import BeautifulSoup

            class PageFetcher:
                def __init__(self):
                    self._pages = {}

                def _download(self, url):
                    request = urllib.request.Request(url, headers={"Accept": "text/html"})
                    with urllib.request.urlopen(request) as response:
                        return response.read().decode("utf-8")

                def soup(self, url):
                    page = self._pages.get(url)
                    if page is None:
                        page = self._pages[url] = BeautifulSoup(self._download(url), "html.parser")
                    return page
            """,
        "jobs/parse.py": r"""
            import re

            def titles(fetcher, page_url):
                found = []
                for card in fetcher.soup(page_url).select("article.job"):
                    pay = re.findall(r"(\d+)k", card.select_one("span.pay").get_text())
                    found.append((card.select_one("h2.title").get_text(), pay))
                return found
            """,
        "scrape.py": """
            from jobs.fetch import PageFetcher
            from jobs.parse import titles

            for team in ("data", "web"):
                print(titles(PageFetcher(), f"https://careers.example.org/jobs/{team}"))
            """,
    }
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dedent(text), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["draft", "scrape.py", "--offline"]) == 0
    data = json.loads(Path("fixtures/scrape.automock.json").read_text())
    (stub,) = [e for e in data["entries"] if e["strategy"] == "stub_http"]
    assert stub["module"] == "jobs/fetch.py"
    assert stub["data"]["url"].startswith("https://careers.example.org/jobs/")
    page = BeautifulSoup(stub["data"]["text"], "html.parser")
    cards = page.select("article.job")
    assert cards and all(c.select_one("h2.title") is not None for c in cards)
    assert all(re.search(r"\d+k", c.select_one("span.pay").get_text()) for c in cards)


def write_project(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dedent(text), encoding="utf-8")


def test_a_returned_body_handed_on_to_a_third_module_is_shaped_by_its_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(
        tmp_path,
        {
            "meals/__init__.py": "",
            "meals/api.py": """
                import requests

                def search(term):
                    return requests.get("https://meals.example.com/search", params={"s": term}).json()
                """,
            "meals/report.py": """
                def lines(data):
                    return [f"{m['name']}: {m['minutes'] / 60:.1f} h" for m in data["meals"]]
                """,
            "plan_week.py": """
                from meals.api import search
                from meals.report import lines

                found = search("chicken")
                print("\\n".join(lines(found)))
                """,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert main(["draft", "plan_week.py", "--offline"]) == 0
    data = json.loads(Path("fixtures/plan_week.automock.json").read_text())
    (stub,) = [e for e in data["entries"] if e["strategy"] == "stub_http"]
    meal = stub["data"]["json"]["meals"][0]
    assert set(meal) == {"name", "minutes"}
    assert isinstance(meal["minutes"], int | float)


def test_a_page_returned_by_one_module_and_parsed_by_another_has_what_the_parser_selects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(
        tmp_path,
        {
            "jobs/__init__.py": "",
            "jobs/fetch.py": """
                import requests
                from bs4 import BeautifulSoup

                def page(url):
                    return BeautifulSoup(requests.get(url, timeout=10).text, "html.parser")
                """,
            "jobs/parse.py": """
                from urllib.parse import urljoin

                def jobs(soup, base):
                    return [
                        (card.select_one("h2.title").get_text(), urljoin(base, card.select_one("a")["href"]))
                        for card in soup.select("article.job")
                    ]
                """,
            "scrape.py": """
                from jobs.fetch import page
                from jobs.parse import jobs

                URL = "https://careers.example.org/jobs"
                for title, link in jobs(page(URL), URL):
                    print(title, link)
                """,
        },
    )
    monkeypatch.chdir(tmp_path)
    assert main(["draft", "scrape.py", "--offline"]) == 0
    data = json.loads(Path("fixtures/scrape.automock.json").read_text())
    (stub,) = [e for e in data["entries"] if e["strategy"] == "stub_http"]
    cards = BeautifulSoup(stub["data"]["text"], "html.parser").select("article.job")
    assert cards
    assert all(c.select_one("h2.title") is not None and c.select_one("a")["href"] for c in cards)


def test_a_helper_called_with_a_different_selector_each_time_draws_every_element() -> None:
    plan = draft(
        dedent(
            """
            import requests
            from bs4 import BeautifulSoup

            def text_of(card, selector, default=""):
                node = card.select_one(selector)
                return node.get_text(" ", strip=True) if node is not None else default

            soup = BeautifulSoup(requests.get("https://jobs.example.org/").text, "html.parser")
            for card in soup.select("article.job"):
                print(text_of(card, "h2.title"), text_of(card, "span.company"), text_of(card, "span.pay"))
            """
        )
    )
    (stub,) = plan.http_stubs()
    cards = BeautifulSoup(stub.text or "", "html.parser").select("article.job")
    assert cards
    for card in cards:
        for selector in ("h2.title", "span.company", "span.pay"):
            found = card.select_one(selector)
            assert found is not None and found.get_text(strip=True), (selector, stub.text)


def test_a_fallback_written_beside_an_environment_read_is_drafted_as_its_value() -> None:
    plan = draft(
        dedent(
            """
            import os
            DEFAULT_API = "https://catalog.example.com"
            api = os.environ["CATALOG_API"].rstrip("/") if "CATALOG_API" in os.environ else DEFAULT_API
            region = os.environ.get("REGION") or "eu-west-1"
            """
        )
    )
    assert plan.env["CATALOG_API"] == "https://catalog.example.com"
    assert plan.env["REGION"] == "eu-west-1"


def test_a_variable_named_like_an_address_is_drafted_as_a_url() -> None:
    plan = draft("import os\nsettings = {'api': os.environ['BILLING_API']}\n")
    assert plan.env["BILLING_API"].startswith("https://")
