# corpus: bs4_title_text_loop (html)
# pattern seen in: github.com/HubercikTM1/practisepython_org :: decode_a_web_page.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

url = "https://www.nytimes.com/"
r = requests.get(url)
soup = BeautifulSoup(r.text, "html.parser")
for story in soup.find_all("h2", class_="story-heading"):
    print("headline:", story.text.strip())
