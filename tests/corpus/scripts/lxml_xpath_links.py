# corpus: lxml_xpath_links (html)
# pattern seen in: (code search result; lxml href extraction) :: links
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from lxml import html

page = requests.get("https://docs.python.org/3/")
tree = html.fromstring(page.content)
for href in tree.xpath('//a[@class="reference internal"]/@href'):
    print("link ->", href)
