# corpus: format_kwargs_entry (json)
# pattern seen in: (issue 12 report: '{from} {to}'.format(**entry)) :: format(**entry)
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

resp = requests.get("https://api.example-transit.com/v2/routes")
for entry in resp.json()["routes"]:
    print("route: {origin} -> {destination} ({minutes} min)".format(**entry))
