# corpus: rss_fromstring_requests (xml)
# pattern seen in: (code search result; RSS via requests + ElementTree) :: rss
# our own program written for automock's corpus; no text taken from the source
"""The first three entries of a news feed: title and link, parsed from the bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import requests

feed = ET.fromstring(requests.get("https://feeds.bbci.co.uk/news/rss.xml").content)
latest = feed.findall("./channel/item")[:3]
for entry in latest:
    print("entry:", entry.find("title").text, "|", entry.find("link").text)
