# corpus: rss_iterfind_urllib (xml)
# pattern seen in: github.com/mccarvik/cookbook_python :: 6_data_encode_processing/3_parse_simple_xml_data.py
# our own program written for automock's corpus; no text taken from the source
"""Every entry of a planet feed: title, date and link, read with findtext."""

from __future__ import annotations

from urllib.request import urlopen
from xml.etree.ElementTree import parse

FEED = "http://planet.python.org/rss20.xml"

tree = parse(urlopen(FEED))
for entry in tree.iterfind("channel/item"):
    fields = {tag: entry.findtext(tag) for tag in ("title", "pubDate", "link")}
    print(f"title: {fields['title']}, date: {fields['pubDate']}, link: {fields['link']}")
