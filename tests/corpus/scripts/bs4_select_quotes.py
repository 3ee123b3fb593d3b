# corpus: bs4_select_quotes (html)
# source: (code search result; quotes.toscrape.com with select) :: quotes
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

page = requests.get("http://quotes.toscrape.com/")
soup = BeautifulSoup(page.text, "html.parser")
for quote in soup.select("div.quote"):
    text = quote.select_one("span.text").get_text()
    author = quote.select_one("small.author").get_text()
    print(f"quote by {author}: {text}")
