# corpus: bs4_books_articles (html)
# source: (code search result; books.toscrape.com scraper) :: books
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

response = requests.get("https://books.toscrape.com")
if response.status_code != 200:
    print("Could not fetch the page")
    exit(1)
soup = BeautifulSoup(response.content, "html.parser")
for article in soup.find_all("article", class_="product_pod"):
    title = article.h3.a["title"]
    price = article.find("p", class_="price_color").text
    print("book:", title, price)
