# corpus: owm_fstring_url (json)
# source: github.com/j2cry/gb_parsing :: hw_1/task_2.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
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
