# corpus: github_status_check (json)
# pattern seen in: (code search result; status + headers) :: rate limit
# our own program written for automock's corpus; no text taken from the source
"""How many API calls are left in this hour's allowance."""

from __future__ import annotations

import requests

reply = requests.get("https://api.github.com/rate_limit")
if not reply.ok:
    print("error", reply.status_code)
else:
    allowance = reply.json()["resources"]["core"]
    print("remaining calls:", allowance["remaining"], "of", allowance["limit"])
