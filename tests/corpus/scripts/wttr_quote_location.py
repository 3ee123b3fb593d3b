# corpus: wttr_quote_location (json)
# pattern seen in: (code search result; wttr.in weather tool) :: get_weather
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import json
import urllib.parse
import requests


def get_weather(location: str) -> str:
    url = f"https://wttr.in/{urllib.parse.quote(location)}?format=j2"
    response = requests.get(url)
    if response.status_code == 200:
        json_data = response.json()
        return json.dumps(json_data, separators=(',', ':'))
    return json.dumps({"error": "Unable to fetch weather data."})


out = get_weather("New York")
if "error" not in out:
    print("minified weather bytes:", len(out))
