# corpus: wttr_quote_location (json)
# source: (code search result; wttr.in weather tool) :: get_weather
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
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
