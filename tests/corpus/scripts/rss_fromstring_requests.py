# corpus: rss_fromstring_requests (xml)
# pattern seen in: (code search result; RSS via requests + ElementTree) :: rss
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import xml.etree.ElementTree as ET

import requests

resp = requests.get("https://feeds.bbci.co.uk/news/rss.xml")
root = ET.fromstring(resp.content)
for item in root.findall("./channel/item")[:3]:
    print("entry:", item.find("title").text, "|", item.find("link").text)
