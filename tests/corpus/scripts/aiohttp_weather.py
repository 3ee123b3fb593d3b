# corpus: aiohttp_weather (json)
# pattern seen in: (code search result; aiohttp OpenWeather client) :: get_current_weather_full
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import asyncio
import aiohttp


async def get_current_weather_full(city: str, api_key: str):
    url = (
        f"https://api.openweathermap.org/data/2.5/weather"
        f"?q={city}&appid={api_key}&units=metric&lang=en"
    )
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as resp:
            if resp.status != 200:
                return None
            return await resp.json()


data = asyncio.run(get_current_weather_full("Paris", "key"))
if data:
    print(f"Feels like {data['main']['feels_like']:.0f} C in {data['name']}")
