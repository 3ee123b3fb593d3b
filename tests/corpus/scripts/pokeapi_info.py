# corpus: pokeapi_info (json)
# pattern seen in: github.com/vishnu26r/python :: API/pokeapi.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

base_url = "https://pokeapi.co/api/v2/"


def get_pokemon_info(name):
    url = f"{base_url}/pokemon/{name}"
    response = requests.get(url)
    if response.status_code == 200:
        return response.json()
    print(f"failed to retrive data {response.status_code}")


pokemon_info = get_pokemon_info("ditto")
if pokemon_info:
    print(f"Name      : {pokemon_info['name']}")
    print(f"Id        : {pokemon_info['id']}")
    print(f"Height    : {pokemon_info['height']}")
    print(f"Weight    : {pokemon_info['weight']}")
    for ability in pokemon_info["abilities"]:
        print(f"abilities : {ability['ability']['name']}")
