"""Print a short weather report for a few cities from a JSON HTTP API."""

import datetime as dt

import requests

API = "https://api.weather.example.com/v1"
CITIES = ["Lisbon", "Oslo", "Nairobi"]


def fetch_current(city: str) -> dict:
    r = requests.get(f"{API}/current", params={"city": city}, timeout=5)
    r.raise_for_status()
    return r.json()


def main() -> None:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"Weather report generated {stamp}")
    for city in CITIES:
        data = fetch_current(city)
        temp = data["current"]["temp"]
        desc = data["current"]["conditions"][0]["description"]
        print(f"{city:>10}: {temp:5.1f} C, {desc} (station {data['station']['name']})")


if __name__ == "__main__":
    main()
