# corpus: rss_iterfind_urllib (xml)
# source: github.com/mccarvik/cookbook_python :: 6_data_encode_processing/3_parse_simple_xml_data.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
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
