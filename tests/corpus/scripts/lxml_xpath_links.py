# corpus: lxml_xpath_links (html)
# source: (code search result; lxml href extraction) :: links
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from lxml import html

page = requests.get("https://docs.python.org/3/")
tree = html.fromstring(page.content)
for href in tree.xpath('//a[@class="reference internal"]/@href'):
    print("link ->", href)
