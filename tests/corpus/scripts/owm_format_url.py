# corpus: owm_format_url (json)
# pattern seen in: github.com/kurodariuto/LINE_Bot_Weather_app :: scripingc_weather.py
# our own program written for automock's corpus; no text taken from the source
"""A city's main weather word; the URL is a template filled in with str.format."""

from __future__ import annotations

import json

import requests

TEMPLATE = "http://api.openweathermap.org/data/2.5/weather?units=metric&q={city}&APPID={key}"


def main_condition(city: str, key: str) -> str:
    body = requests.get(TEMPLATE.format(city=city, key=key)).json()
    return body["weather"][0]["main"]


print("weather main:", json.dumps(main_condition("Mishima", "api_key")))
