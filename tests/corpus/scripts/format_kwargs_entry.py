# corpus: format_kwargs_entry (json)
# source: (issue 12 report: '{from} {to}'.format(**entry)) :: format(**entry)
# licence: reconstruction of a pattern reported in issue 12
from __future__ import annotations

import requests

resp = requests.get("https://api.example-transit.com/v2/routes")
for entry in resp.json()["routes"]:
    print("route: {origin} -> {destination} ({minutes} min)".format(**entry))
