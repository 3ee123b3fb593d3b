# corpus: bs4_select_quotes (html)
# pattern seen in: (code search result; quotes.toscrape.com with select) :: quotes
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

page = requests.get("http://quotes.toscrape.com/")
soup = BeautifulSoup(page.text, "html.parser")
for quote in soup.select("div.quote"):
    text = quote.select_one("span.text").get_text()
    author = quote.select_one("small.author").get_text()
    print(f"quote by {author}: {text}")
