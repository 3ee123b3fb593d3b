# corpus: posts_by_user_range (json)
# pattern seen in: (code search result; posts per userId in range) :: posts per user
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""For users 1 to 3: how many posts each wrote, and the first one's title."""

import requests

SITE = "https://jsonplaceholder.typicode.com"


def posts_of(author):
    return requests.get(url=f"{SITE}/posts?userId={author}", timeout=5).json()


for author in (1, 2, 3):
    written = posts_of(author)
    print(f"posts of user {author}:", len(written), written[0]["title"])
