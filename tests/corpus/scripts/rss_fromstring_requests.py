# corpus: rss_fromstring_requests (xml)
# source: (code search result; RSS via requests + ElementTree) :: rss
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import xml.etree.ElementTree as ET

import requests

resp = requests.get("https://feeds.bbci.co.uk/news/rss.xml")
root = ET.fromstring(resp.content)
for item in root.findall("./channel/item")[:3]:
    print("entry:", item.find("title").text, "|", item.find("link").text)
