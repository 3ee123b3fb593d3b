"""Drafted HTML/XML/CSV bodies that the reading library accepts and finds data in.

Each case is a small scraper of our own, in a shape met in real programs; the drafted
body is handed to the library the program uses (BeautifulSoup, lxml, ElementTree,
``csv``, ``re``), so a test fails when the program would find nothing in it.
"""

from __future__ import annotations

import csv
import io
import re
from textwrap import dedent

from automock.drafting.shapes import HttpShape, infer_shapes


def only(source: str) -> HttpShape:
    found = infer_shapes(dedent(source))
    assert len(found) == 1, found
    return found[0]


def test_find_all_with_a_list_of_classes_finds_a_table() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(requests.get("https://wiki.example.org/List").content, "html.parser")
        print(soup.find_all("table", {"class": ["sortable", "plainrowheaders"]}))
        """
    )
    assert shape.text is not None
    soup = BeautifulSoup(shape.text, "html.parser")
    assert soup.find_all("table", {"class": ["sortable", "plainrowheaders"]})


def test_attribute_value_with_a_space_is_one_selector() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(requests.get("https://quotes.example.org/").text, "html.parser")
        small = soup.find_all(style="font-size: 8px")
        print(small[0].text)
        """
    )
    assert shape.text is not None
    soup = BeautifulSoup(shape.text, "html.parser")
    assert soup.find_all(style="font-size: 8px")[0].text


def test_lxml_root_attribute_and_children() -> None:
    from lxml import etree

    shape = only(
        """
        import requests
        from lxml import etree
        doc = etree.fromstring(requests.get("https://data.example.org/show.xml").content)
        print(doc.attrib["title"], len(doc.findall("slide")))
        """
    )
    assert shape.text is not None
    doc = etree.fromstring(shape.text.encode())
    assert doc.attrib["title"] and doc.findall("slide")


def test_lxml_fromstring_of_text_takes_the_drafted_xml() -> None:
    from lxml import etree

    shape = only(
        """
        import requests
        from lxml import etree
        doc = etree.fromstring(requests.get("https://data.example.org/feed.xml").text)
        for item in doc.findall("item"):
            print(item.findtext("name"))
        """
    )
    assert shape.text is not None
    assert etree.fromstring(shape.text).findall("item")  # a str with no encoding declaration


def test_lxml_html_parser_gives_a_page() -> None:
    from lxml import etree

    shape = only(
        """
        import requests
        from lxml import etree
        res = requests.get("https://docs.example.org/3")
        print(res.headers["Content-Type"])
        parser = etree.HTMLParser()
        root = etree.fromstring(res.text, parser)
        for el in root.iter("a"):
            print(el.attrib["href"])
        """
    )
    assert shape.text is not None
    assert shape.headers["Content-Type"].startswith("text/html")
    root = etree.fromstring(shape.text, etree.HTMLParser())
    assert [el.attrib["href"] for el in root.iter("a")]


def test_soup_of_the_urlopen_response_itself() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        from urllib.request import urlopen
        from bs4 import BeautifulSoup
        page = urlopen("http://intranet.example/report")
        soup = BeautifulSoup(page, "html.parser")
        for cell in soup.find_all("td"):
            print(cell.text)
        """
    )
    assert shape.text is not None
    assert BeautifulSoup(shape.text, "html.parser").find_all("td")


def test_xpath_held_in_a_module_constant() -> None:
    from lxml import html

    shape = only(
        """
        import requests
        import lxml.html
        XPATH = '//*[@id="the-zen"]/pre/text()'
        tree = lxml.html.fromstring(requests.get("https://peps.example.org/20").text)
        print("".join(tree.xpath(XPATH)))
        """
    )
    assert shape.text is not None
    assert "".join(html.fromstring(shape.text).xpath('//*[@id="the-zen"]/pre/text()')).strip()


def test_findall_with_a_compiled_pattern_argument() -> None:
    shape = only(
        """
        import re
        from urllib import request
        page = request.urlopen("http://portal.example/").read().decode()
        LINK = re.compile(r'"https?://[a-z.]+/[a-z]+"')
        print(re.findall(LINK, page))
        """
    )
    assert shape.text is not None
    assert re.findall(r'"https?://[a-z.]+/[a-z]+"', shape.text)


def test_csv_reader_over_split_lines_gets_rows() -> None:
    shape = only(
        """
        import csv
        import requests
        text = requests.get("https://data.example.org/stations.csv").content.decode("utf-8")
        for row in csv.reader(text.splitlines(), delimiter=","):
            print(row)
        """
    )
    assert shape.text is not None
    rows = list(csv.reader(shape.text.splitlines()))
    assert len(rows) >= 2 and all(len(row) >= 2 for row in rows)
    assert shape.headers.get("Content-Type", "").startswith("text/csv")


def test_dict_reader_over_stringio_has_the_columns_read() -> None:
    shape = only(
        """
        import csv
        from io import StringIO
        import requests
        data = requests.get("https://data.example.org/albums.csv")
        for row in csv.DictReader(StringIO(data.text)):
            print(row["Name"], row["Year"])
        """
    )
    assert shape.text is not None
    rows = list(csv.DictReader(io.StringIO(shape.text)))
    assert rows and all(row["Name"] and row["Year"] for row in rows)


def test_tab_separated_reader_gets_its_delimiter() -> None:
    shape = only(
        """
        import csv
        import requests
        lines = requests.get("https://data.example.org/licences.tsv").text.splitlines()
        for row in csv.reader(lines, delimiter="\\t"):
            print(row[0], row[1])
        """
    )
    assert shape.text is not None
    rows = list(csv.reader(shape.text.splitlines(), delimiter="\t"))
    assert rows and all(len(row) >= 2 for row in rows)


def test_feedparser_on_a_url_is_a_request_with_a_feed_body() -> None:
    import feedparser

    shape = only(
        """
        import feedparser
        feed = feedparser.parse("https://news.example.org/rss")
        print(feed.feed.title)
        for entry in feed.entries[:5]:
            print(entry.title, entry.link, entry.published, entry.summary)
        """
    )
    assert shape.url.startswith("https://news.example.org/rss") and shape.text is not None
    parsed = feedparser.parse(shape.text)
    assert not parsed.bozo and parsed.feed.title
    entry = parsed.entries[0]
    assert entry.title and entry.link and entry.published and entry.summary


def test_feedparser_items_read_by_key_through_a_helper() -> None:
    import feedparser

    shape = only(
        """
        from feedparser import parse
        def headlines(url):
            return [item["title"] for item in parse(url)["items"]]
        for title in headlines("https://news.example.org/world.xml"):
            print(title)
        """
    )
    assert shape.text is not None
    assert [item["title"] for item in feedparser.parse(shape.text)["items"]]


def test_feedparser_of_a_local_file_is_not_a_request() -> None:
    found = infer_shapes(
        dedent(
            """
            import feedparser
            for entry in feedparser.parse("saved_feed.xml").entries:
                print(entry.title)
            """
        )
    )
    assert found == []


def test_url_continued_inside_its_last_path_segment_is_served() -> None:
    shape = only(
        """
        import requests
        BASE = "https://quotes.example.org/topics/page-quotes"
        for n in range(2, 5):
            page = requests.get(BASE + "_" + str(n))
            print(page.text[:20])
        """
    )
    # a prefix stub answers the path at or below its own, never a longer last segment
    assert shape.match == "regex", shape
    assert re.match(shape.url, "https://quotes.example.org/topics/page-quotes_3")
    assert not re.match(shape.url, "https://quotes.example.org/other")


def test_url_rebuilt_from_its_parsed_parts_is_served() -> None:
    shape = only(
        """
        import requests
        from urllib.parse import urlparse
        def visit(start, href):
            base = urlparse(start)
            page = requests.get(base.scheme + "://" + base.netloc + href)
            print(page.text[:40])
        """
    )
    assert re.match(shape.url, "https://www.example.org/news/today"), shape.url


def test_element_list_read_at_a_fixed_position_is_long_enough() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(requests.get("https://school.example/").text, "html.parser")
        for tr in soup.find("table", id="batches").find_all("tr")[1:]:
            cols = tr.find_all("td")
            print(cols[0].text, cols[3].text)
        """
    )
    assert shape.text is not None
    rows = BeautifulSoup(shape.text, "html.parser").find("table", id="batches").find_all("tr")
    assert rows[1:] and all(len(tr.find_all("td")) >= 4 for tr in rows)


def test_an_attribute_searched_by_value_and_read_keeps_the_searched_value() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(requests.get("https://shop.example.com/").text, "html.parser")
        tags = soup.find_all("span", class_="cost", itemprop="price")
        print(tags[0]["itemprop"], tags[0].text)
        """
    )
    assert shape.text is not None
    soup = BeautifulSoup(shape.text, "html.parser")
    assert soup.find_all("span", class_="cost", itemprop="price")


def test_bytes_cleaned_by_replace_before_parsing_are_still_the_page() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        raw = requests.get("https://blog.example.com/").content
        raw = raw.replace(b"&#8217;", b"'")
        for para in BeautifulSoup(raw, "html.parser").find_all("p"):
            print(para.get_text())
        """
    )
    assert shape.text is not None
    assert BeautifulSoup(shape.text, "html.parser").find_all("p")


def test_find_all_with_attributes_held_in_a_constant() -> None:
    from bs4 import BeautifulSoup

    shape = only(
        """
        import requests
        from bs4 import BeautifulSoup
        WANTED = {"class": "listing", "data-kind": "rent"}
        soup = BeautifulSoup(requests.get("https://homes.example.com/").text, "html.parser")
        print(soup.find_all("section", WANTED))
        """
    )
    assert shape.text is not None
    soup = BeautifulSoup(shape.text, "html.parser")
    assert soup.find_all("section", {"class": "listing", "data-kind": "rent"})
