# corpus: aiohttp_weather (json)
# pattern seen in: (code search result; aiohttp OpenWeather client) :: get_current_weather_full
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""How warm it feels in one city, fetched with aiohttp."""

import asyncio

import aiohttp

OWM = "https://api.openweathermap.org/data/2.5/weather"


async def conditions(place: str, token: str):
    query = f"{OWM}?q={place}&appid={token}&units=metric&lang=en"
    async with aiohttp.ClientSession() as http:
        async with http.get(query) as answer:
            if answer.status == 200:
                return await answer.json()
    return None


report = asyncio.run(conditions("Paris", "key"))
if report is not None:
    print(f"Feels like {report['main']['feels_like']:.0f} C in {report['name']}")
