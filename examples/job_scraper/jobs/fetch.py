"""Downloading listing pages and pulling the raw fields out of their HTML."""

import urllib.request

from bs4 import BeautifulSoup

HEADERS = {"User-Agent": "job-scraper/0.3", "Accept": "text/html"}


def download(url):
    request = urllib.request.Request(url, headers=HEADERS)
    with urllib.request.urlopen(request, timeout=15) as response:
        return response.read().decode("utf-8", "replace")


def raw_listings(url):
    """Each job card on the page as a dict of the texts it shows."""
    soup = BeautifulSoup(download(url), "html.parser")
    cards = []
    for card in soup.select("article.job"):
        cards.append(
            {
                "title": card.select_one("h2.title").get_text(strip=True),
                "company": card.select_one("span.company").get_text(strip=True),
                "location": card.select_one("span.location").get_text(strip=True),
                "salary": card.select_one("span.salary").get_text(strip=True),
                "link": card.select_one("a.apply")["href"],
            }
        )
    return cards
