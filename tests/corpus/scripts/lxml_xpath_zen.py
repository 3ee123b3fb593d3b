# corpus: lxml_xpath_zen (html)
# pattern seen in: github.com/Gleans/python-spider :: demo/HelloSpider.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import lxml.html
import requests

url = "https://www.python.org/dev/peps/pep-0020/"
xpath = '//*[@id="the-zen-of-python"]/pre/text()'
res = requests.get(url)
ht = lxml.html.fromstring(res.text)
text = ht.xpath(xpath)
print("hello,\n" + "".join(text))
