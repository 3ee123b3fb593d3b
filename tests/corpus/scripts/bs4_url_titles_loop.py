# corpus: bs4_url_titles_loop (html)
# pattern seen in: (code search result; get_url_titles by Corey) :: get_url_titles
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import requests
from bs4 import BeautifulSoup


def get_url_titles(urls):
    page_titles = []
    count = 0
    for url in urls:
        count += 1
        site = requests.get(url)
        try:
            site.raise_for_status()
            soup = BeautifulSoup(site.content, "html.parser")
            page_titles.append('{}: {}'.format(count, soup.title.string))
        except requests.exceptions.HTTPError:
            page_titles.append("{}: 404'd!".format(count))
    return page_titles


for line in get_url_titles(["https://www.python.org", "https://pypi.org"]):
    print(line)
