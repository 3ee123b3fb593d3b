# corpus: github_status_check (json)
# source: (code search result; status + headers) :: rate limit
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

r = requests.get("https://api.github.com/rate_limit")
if r.ok:
    core = r.json()["resources"]["core"]
    print("remaining calls:", core["remaining"], "of", core["limit"])
else:
    print("error", r.status_code)
