# corpus: bs4_books_articles (html)
# pattern seen in: (code search result; books.toscrape.com scraper) :: books
# our own program written for automock's corpus; no text taken from the source
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
