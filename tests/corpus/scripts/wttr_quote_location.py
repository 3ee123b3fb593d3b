# corpus: wttr_quote_location (json)
# pattern seen in: (code search result; wttr.in weather tool) :: get_weather
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""A place's weather as compact JSON; its name is quoted into the URL."""

import json
import urllib.parse

import requests


def compact_weather(place: str) -> str:
    reply = requests.get(f"https://wttr.in/{urllib.parse.quote(place)}?format=j2")
    if reply.status_code != 200:
        return json.dumps({"error": "no weather"})
    return json.dumps(reply.json(), separators=(",", ":"))


text = compact_weather("New York")
if "error" not in text:
    print("minified weather bytes:", len(text))
