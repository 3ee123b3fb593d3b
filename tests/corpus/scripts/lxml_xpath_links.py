# corpus: lxml_xpath_links (html)
# pattern seen in: (code search result; lxml href extraction) :: links
# our own program written for automock's corpus; no text taken from the source
"""Internal links of a documentation index, found with an XPath query."""

from __future__ import annotations

import requests
from lxml import html

tree = html.fromstring(requests.get("https://docs.python.org/3/").content)
targets = tree.xpath('//a[@class="reference internal"]/@href')
for target in targets:
    print("link ->", target)
