# corpus: lxml_xpath_zen (html)
# pattern seen in: github.com/Gleans/python-spider :: demo/HelloSpider.py
# our own program written for automock's corpus; no text taken from the source
"""The text of one preformatted block, picked by XPath, after a greeting."""

from __future__ import annotations

import lxml.html
import requests

PEP = "https://www.python.org/dev/peps/pep-0020/"
BLOCK = '//*[@id="the-zen-of-python"]/pre/text()'

page = lxml.html.fromstring(requests.get(PEP).text)
print("hello,\n" + "".join(page.xpath(BLOCK)))
