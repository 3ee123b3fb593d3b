# corpus: rss_iterfind_urllib (xml)
# pattern seen in: github.com/mccarvik/cookbook_python :: 6_data_encode_processing/3_parse_simple_xml_data.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

from urllib.request import urlopen
from xml.etree.ElementTree import parse

u = urlopen("http://planet.python.org/rss20.xml")
doc = parse(u)
for item in doc.iterfind("channel/item"):
    title = item.findtext("title")
    date = item.findtext("pubDate")
    link = item.findtext("link")
    print(f"title: {title}, date: {date}, link: {link}")
