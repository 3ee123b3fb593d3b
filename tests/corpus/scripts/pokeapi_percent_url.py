# corpus: pokeapi_percent_url (json)
# pattern seen in: (code search result; PokeAPI %-formatted URLs) :: getPokemon
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""A species' colour, its URL built with the % operator."""

import requests

SPECIES = "https://pokeapi.co/api/v2/pokemon-species/%s"


def colour_of(species):
    try:
        record = requests.get(SPECIES % species).json()
    except requests.exceptions.RequestException as problem:
        print("Error: %s" % problem)
        return
    print("species color:", record["color"]["name"])


colour_of("ditto")
