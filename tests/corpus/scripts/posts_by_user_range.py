# corpus: posts_by_user_range (json)
# pattern seen in: (code search result; posts per userId in range) :: posts per user
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import requests

BASE = "https://jsonplaceholder.typicode.com"
for user in range(1, 4):
    response = requests.get(url=f"{BASE}/posts?userId={user}", timeout=5)
    data = response.json()
    print(f"posts of user {user}:", len(data), data[0]["title"])
