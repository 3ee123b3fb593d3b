# corpus: pokeapi_percent_url (json)
# pattern seen in: (code search result; PokeAPI %-formatted URLs) :: getPokemon
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import requests


def getSpecies(pokemon):
    url = "https://pokeapi.co/api/v2/pokemon-species/%s" % (pokemon)
    try:
        response = requests.get(url).json()
        print("species color:", response["color"]["name"])
    except requests.exceptions.RequestException as e:
        print("Error: %s" % (e))


getSpecies("ditto")
