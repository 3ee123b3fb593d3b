# corpus: owm_fstring_url (json)
# pattern seen in: github.com/j2cry/gb_parsing :: hw_1/task_2.py
# our own program written for automock's corpus; no text taken from the source
"""A city's temperature in Celsius (the API gives kelvin) and its sky, or why not."""

from __future__ import annotations

import sys

import requests

BASE = "http://api.openweathermap.org/data/2.5/"
KEY = "a key of your own"
CITY = "Moscow"

print("Requesting...")
reply = requests.get(f"{BASE}weather?q={CITY}&appid={KEY}")
if reply.status_code != 200:
    sys.exit(f"the weather service answered {reply.status_code}")
now = reply.json()
celsius = now["main"]["temp"] - 273.15
print(f"Temperature in {CITY}: {celsius:.1f} C, {now['weather'][0]['description']}")
