# corpus: github_status_check (json)
# pattern seen in: (code search result; status + headers) :: rate limit
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

r = requests.get("https://api.github.com/rate_limit")
if r.ok:
    core = r.json()["resources"]["core"]
    print("remaining calls:", core["remaining"], "of", core["limit"])
else:
    print("error", r.status_code)
