# corpus: bs4_title_text_loop (html)
# pattern seen in: github.com/HubercikTM1/practisepython_org :: decode_a_web_page.py
# our own program written for automock's corpus; no text taken from the source
"""Front-page headlines, stripped of surrounding whitespace."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup


def headlines(front_page: str) -> list[str]:
    markup = BeautifulSoup(requests.get(front_page).text, "html.parser")
    return [h2.text.strip() for h2 in markup.find_all("h2", class_="story-heading")]


for line in headlines("https://www.nytimes.com/"):
    print("headline:", line)
