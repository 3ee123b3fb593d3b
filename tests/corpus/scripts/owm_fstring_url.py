# corpus: owm_fstring_url (json)
# pattern seen in: github.com/j2cry/gb_parsing :: hw_1/task_2.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

URL = "http://api.openweathermap.org/data/2.5/"
API_KEY = "your own OpenWeatherAPI key"
city = "Moscow"

response = requests.get(f"{URL}weather?q={city}&appid={API_KEY}")
print("Requesting...")
if response.status_code != 200:
    exit(f"It seems that something went wrong... (error {response.status_code})")
data = response.json()
print(
    f"Temperature in {city}: {data['main']['temp'] - 273.15:.1f} C, {data['weather'][0]['description']}"
)
