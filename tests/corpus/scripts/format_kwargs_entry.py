# corpus: format_kwargs_entry (json)
# pattern seen in: (issue 12 report: '{from} {to}'.format(**entry)) :: format(**entry)
# our own program written for automock's corpus; no text taken from the source
"""Each route of a transit API, its fields spread into a format string."""

from __future__ import annotations

import requests

timetable = requests.get("https://api.example-transit.com/v2/routes").json()
for route in timetable["routes"]:
    print("route: {origin} -> {destination} ({minutes} min)".format(**route))
