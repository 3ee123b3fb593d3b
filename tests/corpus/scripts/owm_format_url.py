# corpus: owm_format_url (json)
# pattern seen in: github.com/kurodariuto/LINE_Bot_Weather_app :: scripingc_weather.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import json

import requests

city_name = "Mishima"
api_key = "api_key"
web_api = "http://api.openweathermap.org/data/2.5/weather?units=metric&q={city}&APPID={key}"
url = web_api.format(city=city_name, key=api_key)

resp = requests.get(url)
data = resp.json()
main = data["weather"][0]["main"]
print("weather main:", json.dumps(main))
