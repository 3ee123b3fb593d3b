# corpus: lxml_xpath_zen (html)
# source: github.com/Gleans/python-spider :: demo/HelloSpider.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import lxml.html
import requests

url = "https://www.python.org/dev/peps/pep-0020/"
xpath = '//*[@id="the-zen-of-python"]/pre/text()'
res = requests.get(url)
ht = lxml.html.fromstring(res.text)
text = ht.xpath(xpath)
print("hello,\n" + "".join(text))
