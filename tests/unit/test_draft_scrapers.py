"""Drafting from how real code reads responses: literal keys, per-value stubs, HTML/XML, regexes.

Each drafted body is checked by the library the code uses (BeautifulSoup, lxml,
ElementTree, ``re``), so the test fails if the body would not satisfy the scraper.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from textwrap import dedent

from automock.drafting import draft
from automock.drafting.shapes import HttpShape, infer_shapes
from automock.plan.model import HttpStub


def shapes_of(source: str) -> list[HttpShape]:
    return infer_shapes(dedent(source))


def only(source: str) -> HttpShape:
    found = shapes_of(source)
    assert len(found) == 1, found
    return found[0]


def test_loop_over_a_constant_list_keys_an_object_by_its_values() -> None:
    shape = only(
        """
        import requests
        SYMBOLS = ["USD", "GBP"]
        rates = requests.get("https://api.example.com/latest").json()["rates"]
        for code in SYMBOLS:
            print(100 * rates[code])
        """
    )
    assert set(shape.json["rates"]) == {"USD", "GBP"}
    assert all(isinstance(v, int | float) for v in shape.json["rates"].values())


def test_module_constant_key_is_a_key_not_a_list_position() -> None:
    shape = only(
        """
        import requests
        PAIR = "USD"
        data = requests.get("https://api.example.com/latest").json()
        print(f"{data['rates'][PAIR]:.4f}")
        """
    )
    assert isinstance(shape.json["rates"], dict)
    assert isinstance(shape.json["rates"]["USD"], float)


def test_unknown_string_key_gives_an_object_and_an_int_name_a_list() -> None:
    shape = only(
        """
        import requests
        def show(field, i):
            data = requests.get("https://api.example.com/x").json()
            print(data["by_name"][field], data["rows"][i])
        """
    )
    assert isinstance(shape.json["by_name"], dict)
    assert isinstance(shape.json["rows"], list)


def test_one_stub_per_literal_value_with_different_bodies() -> None:
    plan = draft("examples/weather_report.py")
    stubs = [HttpStub.from_dict(e.data, "stub") for e in plan.entries if e.strategy == "stub_http"]
    assert len(stubs) == 3
    assert len({str(s.json) for s in stubs}) == 3
    served = [
        _served(stubs, f"https://api.weather.example.com/v1/current?city={city}")
        for city in ("Lisbon", "Oslo", "Nairobi")
    ]
    assert all(s is not None for s in served)
    assert len({str(s.json) for s in served if s is not None}) == 3  # each city its own


def test_path_values_get_one_url_each() -> None:
    found = shapes_of(
        """
        import requests
        USERS = ["ada", "linus"]
        for user in USERS:
            print(requests.get(f"https://api.example.com/users/{user}").json()["name"])
        """
    )
    urls = {s.url for s in found}
    assert len(found) == 2 and len(urls) == 2
    assert any("ada" in u for u in urls) and any("linus" in u for u in urls)


def test_distinct_endpoints_are_not_served_by_one_catch_all() -> None:
    found = shapes_of(
        """
        import requests
        def top(base):
            ids = requests.get(f"{base}/topstories.json").json()
            return [requests.get(f"{base}/item/{i}.json").json()["title"] for i in ids]
        """
    )
    stubs = [HttpStub.from_dict(s.stub_data(), "stub") for s in found]
    assert all(s.url != ".*" for s in stubs)
    top, item = stubs
    assert _served([top], "https://hn.example.com/v0/topstories.json") is top
    assert _served([top], "https://hn.example.com/v0/item/7.json") is None
    assert _served(stubs, "https://hn.example.com/v0/item/7.json") is item


def _served(stubs: list[HttpStub], url: str) -> HttpStub | None:
    """The stub the runtime's matching would serve ``GET url`` with."""
    from automock.runtime.http_match import Request, compile_stubs, most_specific

    chosen = most_specific(compile_stubs(stubs), Request("GET", url))
    return chosen.stub if chosen is not None else None


def test_types_from_use_join_format_kwargs_and_string_concat() -> None:
    shape = only(
        """
        import requests
        p = requests.get("https://api.example.com/p/1").json()
        print("tags: " + ", ".join(p["tags"]))
        print("price: " + p["price_label"])
        for entry in p["routes"]:
            print("{origin} -> {destination}".format(**entry))
        """
    )
    assert all(isinstance(t, str) for t in shape.json["tags"])
    assert isinstance(shape.json["price_label"], str)
    assert {"origin", "destination"} <= set(shape.json["routes"][0])


def test_pagination_loops_end() -> None:
    shape = only(
        """
        import requests
        url = "https://api.example.com/issues"
        while url:
            data = requests.get(url).json()
            for issue in data["items"]:
                print(issue["title"])
            url = data["next"]
        """
    )
    assert shape.json["next"] is None and len(shape.json["items"]) == 2


def test_beautifulsoup_selectors_find_the_drafted_elements() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(requests.get("https://shop.example.com").text, "html.parser")
        for article in soup.find_all("article", class_="product_pod"):
            print(article.h3.a["title"], article.find("p", class_="price").text)
        for quote in soup.select("div.quote"):
            print(quote.select_one("span.text").get_text())
        price = float(soup.find(id="price").text)
        """
    )
    assert shape.text is not None and "/text" in shape.guessed
    soup = BeautifulSoup(shape.text, "html.parser")
    articles = soup.find_all("article", class_="product_pod")
    assert len(articles) == 2
    assert articles[0].h3.a["title"] and articles[0].find("p", class_="price").text
    assert soup.select("div.quote")[0].select_one("span.text").get_text()
    assert isinstance(float(soup.find(id="price").text), float)


def test_lxml_xpath_finds_text_and_attributes() -> None:
    from lxml import html

    shape = only(
        """
        import requests
        from lxml import html
        tree = html.fromstring(requests.get("https://docs.example.com/").content)
        for href in tree.xpath('//a[@class="reference internal"]/@href'):
            print(href)
        print(tree.xpath('//*[@id="zen"]/pre/text()'))
        """
    )
    assert shape.text is not None
    tree = html.fromstring(shape.text)
    assert tree.xpath('//a[@class="reference internal"]/@href')
    assert tree.xpath('//*[@id="zen"]/pre/text()')


def test_elementtree_paths_find_the_drafted_items() -> None:
    shape = only(
        """
        import requests
        import xml.etree.ElementTree as ET
        root = ET.fromstring(requests.get("https://news.example.com/rss.xml").content)
        for item in root.findall("./channel/item"):
            print(item.find("title").text, item.findtext("link"))
        """
    )
    assert shape.text is not None
    items = ET.fromstring(shape.text).findall("./channel/item")
    assert len(items) == 2
    assert items[0].find("title").text and items[0].findtext("link")  # type: ignore[union-attr]


def test_regex_over_text_is_matched_by_the_drafted_body() -> None:
    shape = only(
        """
        import re, requests
        r = requests.get("https://www.example.org/downloads/")
        m = re.search(r"Download Python (\\d+\\.\\d+\\.\\d+)", r.text)
        print(m.group(1))
        """
    )
    assert shape.text is not None
    assert re.search(r"Download Python (\d+\.\d+\.\d+)", shape.text)
