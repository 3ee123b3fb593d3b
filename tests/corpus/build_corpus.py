"""One-off generator kept for the record: writes scripts/*.py and MANIFEST.json."""

from __future__ import annotations

import json
import pathlib
import textwrap

HERE = pathlib.Path(__file__).parent
R = "reconstruction of the real pattern (licence not stated; not copied verbatim)"
E = []


def add(name, repo, path, kind, expect, code, licence=R):
    E.append(
        dict(
            name=name,
            repo=repo,
            path=path,
            kind=kind,
            expect=expect,
            licence=licence,
            code=textwrap.dedent(code).lstrip(),
        )
    )


add(
    "owm_fstring_url",
    "j2cry/gb_parsing",
    "hw_1/task_2.py",
    "json",
    "Temperature in Moscow:",
    """
import requests

URL = 'http://api.openweathermap.org/data/2.5/'
API_KEY = 'your own OpenWeatherAPI key'
city = 'Moscow'

response = requests.get(f'{URL}weather?q={city}&appid={API_KEY}')
print('Requesting...')
if response.status_code != 200:
    exit(f'It seems that something went wrong... (error {response.status_code})')
data = response.json()
print(f"Temperature in {city}: {data['main']['temp'] - 273.15:.1f} C, {data['weather'][0]['description']}")
""",
)
add(
    "owm_format_url",
    "kurodariuto/LINE_Bot_Weather_app",
    "scripingc_weather.py",
    "json",
    "weather main:",
    """
import json
import requests

city_name = "Mishima"
api_key = "api_key"
web_api = "http://api.openweathermap.org/data/2.5/weather?units=metric&q={city}&APPID={key}"
url = web_api.format(city=city_name, key=api_key)

resp = requests.get(url)
data = resp.json()
main = data["weather"][0]["main"]
print("weather main:", json.dumps(main))
""",
)
add(
    "coindesk_price",
    "microsoft/DevHomeAzureExtension",
    "src/AzureExtension/Assets/QuickStartPlayground/Samples/bitcoin-price-tracker/price_tracker.py",
    "json",
    "Bitcoin Price: $",
    """
import requests

url = 'https://api.coindesk.com/v1/bpi/currentprice.json'

response = requests.get(url)
data = response.json()

print("Bitcoin Price: $" + data['bpi']['USD']['rate'])
""",
    licence="MIT (microsoft/DevHomeAzureExtension); copied verbatim",
)
add(
    "coingecko_params",
    "themule888/crypto-arb-learning",
    "src/api_practice.py",
    "json",
    "Bitcoin price: $",
    """
import requests

url = 'https://api.coingecko.com/api/v3/simple/price'
params = {'ids': 'bitcoin', 'vs_currencies': 'usd'}
response = requests.get(url, params=params)
if response.status_code == 200:
    data = response.json()
    price = data['bitcoin']['usd']
    print(f'Bitcoin price: ${price:,.2f}')
""",
)
add(
    "coindesk_rate_float",
    "(code search result; repository not named)",
    "btc tool",
    "json",
    "price: $",
    """
import requests

def get_btcusd_price():
    url = "https://api.coindesk.com/v1/bpi/currentprice.json"
    try:
        response = requests.get(url)
        response.raise_for_status()
        data = response.json()
        btc_price_usd = data['bpi']['USD']['rate_float']
        return {"price": f"${btc_price_usd:,.2f}"}
    except requests.RequestException as e:
        return {"error": str(e)}

result = get_btcusd_price()
if "price" in result:
    print("price:", result["price"])
""",
)
add(
    "hn_session_top",
    "realrasengan/autobahn",
    "hn.py",
    "json",
    "news.ycombinator.com/item?id=",
    """
import requests

total = 3
url = 'https://hacker-news.firebaseio.com/v0'

with requests.Session() as session:
    ids = session.get(f'{url}/topstories.json').json()
    for i, id in enumerate(ids[:total], start=1):
        item = session.get(f'{url}/item/{id}.json').json()
        print(f"{i:2}) {item['title']} | {item['url']}")
        print(f"    https://news.ycombinator.com/item?id={id} | {item['by']} | {item['score']}")
""",
)
add(
    "hn_sync_get",
    "gabrielsroka/hn",
    "hn_sync.py",
    "json",
    "news.ycombinator.com/item?id=",
    """
import requests

total = 3
url = 'https://hacker-news.firebaseio.com'

def main():
    with requests.Session() as session:
        r = session.get(f'{url}/v0/topstories.json')
        ids = r.json()
        for i, id in enumerate(ids[:total], start=1):
            r = session.get(f'{url}/v0/item/{id}.json')
            item = r.json()
            if item:
                print(f"{i:2}) {item['title']} | {item.get('url')}")
                print(f"    https://news.ycombinator.com/item?id={item['id']} | {item['by']} | {item['score']}")

main()
""",
)
add(
    "hn_format_item",
    "(code search result; repository not named)",
    "hacker news top stories",
    "json",
    "Title:",
    """
import requests

top_stories_url = "https://hacker-news.firebaseio.com/v0/topstories.json"
item_url = "https://hacker-news.firebaseio.com/v0/item/{}.json"
num_stories = 3

response = requests.get(top_stories_url)
if response.status_code != 200:
    print(f"Failed: {response.status_code}")
    exit()
story_ids = response.json()[:num_stories]
for id in story_ids:
    story_response = requests.get(item_url.format(id))
    if story_response.status_code == 200:
        story = story_response.json()
        print(f"Title: {story.get('title')}")
        print(f"URL: {story.get('url', 'N/A')}")
""",
)
add(
    "pokeapi_info",
    "vishnu26r/python",
    "API/pokeapi.py",
    "json",
    "abilities :",
    """
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
    for ability in pokemon_info['abilities']:
        print(f"abilities : {ability['ability']['name']}")
""",
)
add(
    "pokeapi_urllib",
    "phantomized-exe/Unit-3",
    "Lesson5/main.py",
    "json",
    "Value:",
    """
import json
import urllib.request

POKE_URL = "https://pokeapi.co/api/v2/pokemon/pikachu"

response = urllib.request.urlopen(POKE_URL)
pokemon = json.load(response)
print(pokemon['types'][0]['type']['name'])
for ability in pokemon['abilities']:
    print(f"Name: {ability['ability']['name']}")
for stat in pokemon['stats']:
    print(f"Name: {stat['stat']['name']} \\t Value: {stat['base_stat']}")
""",
)
add(
    "pokeapi_list",
    "gmelo21/College-Studies",
    "Python-Studies/py_class_09.py",
    "json",
    "Pokemon:",
    """
import requests

try:
    response = requests.get("https://pokeapi.co/api/v2/pokemon/")
    if response.status_code == 200:
        dictResponse = response.json()
        for item in dictResponse["results"]:
            print(f"Pokemon: {item['name'].capitalize()}")
    else:
        print("Requisition error.")
except Exception as error:
    print(f"Error: {error}")
""",
)
add(
    "jsonplaceholder_users",
    "deepvr789/FS-FEB",
    "python/invokeapi/api.py",
    "json",
    "user:",
    """
import requests
response = requests.get('https://jsonplaceholder.typicode.com/users')
users_list = response.json()
for user in users_list:
    print("user:", user['id'], user['username'])
""",
)
add(
    "jsonplaceholder_posts_params",
    "(code search result; repository not named)",
    "get_posts",
    "json",
    "Retrieved",
    """
import requests

BASE_URL = "https://jsonplaceholder.typicode.com"

def get_posts(user_id=None):
    url = f"{BASE_URL}/posts"
    params = {'userId': user_id} if user_id else {}
    response = requests.get(url, params=params)
    response.raise_for_status()
    posts = response.json()
    print(f"Retrieved {len(posts)} post(s):")
    for post in posts[:5]:
        print(f"Post #{post['id']} - {post['title']}")

if __name__ == "__main__":
    get_posts(user_id=1)
""",
)
add(
    "jsonplaceholder_two_endpoints",
    "(code search result; repository not named)",
    "posts/1 and posts",
    "json",
    "Title of first post:",
    """
import requests
response1 = requests.get("https://jsonplaceholder.typicode.com/posts/1")
data = response1.json()
print(f"Title: {data['title']}")
print(f"User ID: {data['userId'] + 0}")

responseposts = requests.get("https://jsonplaceholder.typicode.com/posts")
posts = responseposts.json()
print(f"Total posts: {len(posts)}")
print(f"Title of first post: {posts[0]['title']}")
""",
)
add(
    "urllib_httpbin",
    "PacktPublishing/Mastering-Python-for-Networking-and-Security-Second-Edition",
    "chapter4/urllib.request/json_response.py",
    "json",
    "origin:",
    """
import urllib.request
import json

url = "http://httpbin.org/get"

with urllib.request.urlopen(url) as response_json:
    data_json = json.loads(response_json.read().decode("utf-8"))
    print("origin:", data_json["origin"], data_json["url"])
""",
)
add(
    "urllib_request_charset",
    "Teresito/CherryPy.Angular",
    "Project/BackEnd/API_Test/list_apis.py",
    "json",
    "api:",
    """
import urllib.request
import json

url = "http://cs302.kiwi.land/api/list_apis"
req = urllib.request.Request(url)
response = urllib.request.urlopen(req)
data = response.read()
encoding = response.info().get_content_charset('utf-8')
response.close()
JSON_object = json.loads(data.decode(encoding))
for name in JSON_object["apis"]:
    print("api:", name)
""",
)
add(
    "exchange_rates_text",
    "(code search result; pattern from python.gotrained.com JSON API tutorial)",
    "exchange rates",
    "json",
    "EUR equals",
    """
import requests
import json

url = "https://api.exchangeratesapi.io/latest?symbols=USD,GBP"
response = requests.get(url)
data = response.text
parsed = json.loads(data)
date = parsed["date"]
gbp_rate = parsed["rates"]["GBP"]
usd_rate = parsed["rates"]["USD"]
print("On " + date + " EUR equals " + str(gbp_rate) + " GBP")
print("On " + date + " EUR equals " + str(usd_rate) + " USD")
""",
)
add(
    "rates_constant_pair",
    "(issue 12 report: data['rates'][PAIR])",
    "rates by constant",
    "json",
    "1 EUR =",
    """
import requests

PAIR = "USD"
API = "https://open.er-api.com/v6/latest/EUR"

data = requests.get(API, timeout=10).json()
rate = data["rates"][PAIR]
print(f"1 EUR = {rate:.4f} {PAIR}")
""",
    licence="reconstruction of a pattern reported in issue 12",
)
add(
    "rates_loop_symbols",
    "noecamacho/currency-converter-shell",
    "README.md (converter usage)",
    "json",
    "converted:",
    """
import requests

SYMBOLS = ["USD", "GBP", "JPY"]

resp = requests.get("https://api.frankfurter.app/latest", params={"from": "EUR"})
resp.raise_for_status()
rates = resp.json()["rates"]
for code in SYMBOLS:
    print(f"converted: 100 EUR = {100 * rates[code]:.2f} {code}")
""",
)
add(
    "github_repos_list",
    "(code search result; GitHub REST API usage)",
    "repos listing",
    "json",
    "stars",
    """
import requests

USER = "octocat"
r = requests.get(f"https://api.github.com/users/{USER}/repos", params={"per_page": 5})
r.raise_for_status()
for repo in sorted(r.json(), key=lambda x: x["stargazers_count"], reverse=True):
    print(f"{repo['name']:<30} {repo['stargazers_count']:>6} stars  {repo['language'] or '-'}")
""",
)
add(
    "github_pagination_link",
    "(code search result; GitHub REST pagination with next links)",
    "paged listing",
    "json",
    "total issues:",
    """
import requests

url = "https://api.github.com/repos/psf/requests/issues"
count = 0
while url:
    resp = requests.get(url, params={"state": "open"})
    data = resp.json()
    for issue in data["items"]:
        count += 1
    url = data["next"]
print("total issues:", count)
""",
)
add(
    "paginated_has_more",
    "(code search result; cursor pagination pattern)",
    "has_more loop",
    "json",
    "fetched records:",
    """
import requests

API = "https://api.example-crm.com/v1/contacts"
records = []
cursor = None
while True:
    params = {"limit": 100}
    if cursor:
        params["starting_after"] = cursor
    page = requests.get(API, params=params).json()
    records.extend(page["data"])
    if not page["has_more"]:
        break
    cursor = page["data"][-1]["id"]
print("fetched records:", len(records))
""",
)
add(
    "format_kwargs_entry",
    "(issue 12 report: '{from} {to}'.format(**entry))",
    "format(**entry)",
    "json",
    "route:",
    """
import requests

resp = requests.get("https://api.example-transit.com/v2/routes")
for entry in resp.json()["routes"]:
    print("route: {origin} -> {destination} ({minutes} min)".format(**entry))
""",
    licence="reconstruction of a pattern reported in issue 12",
)
add(
    "keys_through_variable",
    "(issue 12 report: post['data'][field])",
    "post['data'][field]",
    "json",
    "field title =",
    """
import requests

FIELDS = ("title", "author", "score")
post = requests.get("https://www.reddit.com/r/python/about.json").json()
for field in FIELDS:
    print(f"field {field} =", post["data"][field])
""",
    licence="reconstruction of a pattern reported in issue 12",
)
add(
    "join_tags",
    "(code search result; tags joined)",
    "tags join",
    "json",
    "tags:",
    """
import requests

resp = requests.get("https://dummyjson.com/products/1")
product = resp.json()
print("product:", product["title"].upper())
print("tags:", ", ".join(product["tags"]))
print("discounted:", round(product["price"] * (1 - product["discountPercentage"] / 100), 2))
""",
)
add(
    "httpx_client_json",
    "(code search result; httpx client usage)",
    "httpx client",
    "json",
    "country:",
    """
import httpx

with httpx.Client(base_url="https://restcountries.com/v3.1", timeout=10) as client:
    resp = client.get("/name/portugal")
    resp.raise_for_status()
    for country in resp.json():
        print("country:", country["name"]["common"], country["population"] // 1000, "thousand")
""",
)
add(
    "httpx_hn_comprehension",
    "(code search result; httpx comprehension over HN items)",
    "httpx HN",
    "json",
    "story:",
    """
import httpx

ids = httpx.get("https://hacker-news.firebaseio.com/v0/topstories.json").json()[:3]
stories = [httpx.get(f"https://hacker-news.firebaseio.com/v0/item/{id}.json").json() for id in ids]
for s in stories:
    print("story:", s["title"], s["score"])
""",
)
add(
    "github_status_check",
    "(code search result; status + headers)",
    "rate limit",
    "json",
    "remaining calls:",
    """
import requests

r = requests.get("https://api.github.com/rate_limit")
if r.ok:
    core = r.json()["resources"]["core"]
    print("remaining calls:", core["remaining"], "of", core["limit"])
else:
    print("error", r.status_code)
""",
)
add(
    "post_json_create",
    "Vladgavr96/gda",
    "http/ozon.py",
    "json",
    "created post id",
    """
import requests

data = {"userId": 1, "title": "python test", "body": "text"}
res = requests.post(url='https://jsonplaceholder.typicode.com/posts', json=data)
if res.status_code in (200, 201):
    print("created post id", res.json()["id"])
""",
)
# --- HTML ---
add(
    "bs4_find_all_title",
    "Rozaki0318/python_practice",
    "scraping.py",
    "html",
    "<title>",
    """
from bs4 import BeautifulSoup
import requests

html = requests.get('https://www.python.org')
soup = BeautifulSoup(html.text, 'html.parser')
titles = soup.find_all('title')
print(titles)
""",
)
add(
    "bs4_title_text_loop",
    "HubercikTM1/practisepython_org",
    "decode_a_web_page.py",
    "html",
    "headline:",
    """
import requests
from bs4 import BeautifulSoup

url = 'https://www.nytimes.com/'
r = requests.get(url)
soup = BeautifulSoup(r.text, 'html.parser')
for story in soup.find_all('h2', class_='story-heading'):
    print("headline:", story.text.strip())
""",
)
add(
    "bs4_soup_title",
    "mushanmushan1/test",
    "gbdt.py",
    "html",
    "page title:",
    """
import requests
from bs4 import BeautifulSoup

data = requests.get("http://www.pythonscraping.com/pages/page1.html").content
soup = BeautifulSoup(data, "html.parser")
print("page title:", soup.title.text)
for link in soup.find_all("a"):
    print("link:", link.get("href"))
""",
)
add(
    "bs4_books_articles",
    "(code search result; books.toscrape.com scraper)",
    "books",
    "html",
    "book:",
    """
import requests
from bs4 import BeautifulSoup

response = requests.get('https://books.toscrape.com')
if response.status_code != 200:
    print('Could not fetch the page')
    exit(1)
soup = BeautifulSoup(response.content, 'html.parser')
for article in soup.find_all('article', class_='product_pod'):
    title = article.h3.a['title']
    price = article.find('p', class_='price_color').text
    print("book:", title, price)
""",
)
add(
    "bs4_paged_titles",
    "(code search result; ssr1.scrape.center pages)",
    "paged titles",
    "html",
    "movie:",
    """
import requests
from bs4 import BeautifulSoup

headers = {"User-Agent": "Mozilla/5.0"}
for i in range(1, 3):
    URL = f"https://ssr1.scrape.center/page/{i}"
    resp = requests.get(URL, headers=headers)
    soup = BeautifulSoup(resp.text, 'html.parser')
    for title in soup.find_all("h2", attrs={"class": "m-b-sm"}):
        print("movie:", title.string)
""",
)
add(
    "bs4_select_quotes",
    "(code search result; quotes.toscrape.com with select)",
    "quotes",
    "html",
    "quote by",
    """
import requests
from bs4 import BeautifulSoup

page = requests.get("http://quotes.toscrape.com/")
soup = BeautifulSoup(page.text, "html.parser")
for quote in soup.select("div.quote"):
    text = quote.select_one("span.text").get_text()
    author = quote.select_one("small.author").get_text()
    print(f"quote by {author}: {text}")
""",
)
add(
    "bs4_table_rows",
    "(code search result; wikipedia table scraper)",
    "table rows",
    "html",
    "row:",
    """
import requests
from bs4 import BeautifulSoup

resp = requests.get("https://en.wikipedia.org/wiki/List_of_countries_by_population")
soup = BeautifulSoup(resp.text, "html.parser")
table = soup.find("table", {"class": "wikitable"})
for row in table.find_all("tr")[1:4]:
    cells = row.find_all("td")
    print("row:", cells[0].text.strip(), cells[1].text.strip())
""",
)
add(
    "bs4_post_titles_getText",
    "(code search result; blog post titles)",
    "post titles",
    "html",
    "post:",
    """
import requests
from bs4 import BeautifulSoup

url = 'https://www.codewithtomi.com/'
r = requests.get(url)
soup = BeautifulSoup(r.content, 'html.parser')
for t in soup.find_all('h2', {'class': 'post-title'}):
    print("post:", t.getText())
""",
)
add(
    "bs4_id_price",
    "(code search result; product page by id)",
    "price by id",
    "html",
    "price now:",
    """
import requests
from bs4 import BeautifulSoup

resp = requests.get("https://shop.example.com/item/42")
soup = BeautifulSoup(resp.text, "html.parser")
price = float(soup.find(id="price").text.strip().lstrip("$"))
name = soup.find("h1", class_="product-name").text
print(f"price now: {name} {price:.2f}")
""",
)
add(
    "lxml_xpath_zen",
    "Gleans/python-spider",
    "demo/HelloSpider.py",
    "html",
    "hello,",
    """
import lxml.html
import requests

url = 'https://www.python.org/dev/peps/pep-0020/'
xpath = '//*[@id="the-zen-of-python"]/pre/text()'
res = requests.get(url)
ht = lxml.html.fromstring(res.text)
text = ht.xpath(xpath)
print('hello,\\n' + ''.join(text))
""",
)
add(
    "lxml_xpath_links",
    "(code search result; lxml href extraction)",
    "links",
    "html",
    "link ->",
    """
import requests
from lxml import html

page = requests.get("https://docs.python.org/3/")
tree = html.fromstring(page.content)
for href in tree.xpath('//a[@class="reference internal"]/@href'):
    print("link ->", href)
""",
)
add(
    "regex_over_text",
    "(code search result; regex over page text)",
    "regex price",
    "html",
    "version:",
    """
import re
import requests

r = requests.get("https://www.python.org/downloads/")
m = re.search(r"Download Python (\\d+\\.\\d+\\.\\d+)", r.text)
if m:
    print("version:", m.group(1))
else:
    print("not found")
""",
)
# --- XML ---
add(
    "rss_iterfind_urllib",
    "mccarvik/cookbook_python",
    "6_data_encode_processing/3_parse_simple_xml_data.py",
    "xml",
    "title:",
    """
from urllib.request import urlopen
from xml.etree.ElementTree import parse

u = urlopen('http://planet.python.org/rss20.xml')
doc = parse(u)
for item in doc.iterfind('channel/item'):
    title = item.findtext('title')
    date = item.findtext('pubDate')
    link = item.findtext('link')
    print('title: {t}, date: {d}, link: {l}'.format(t=title, d=date, l=link))
""",
)
add(
    "rss_fromstring_requests",
    "(code search result; RSS via requests + ElementTree)",
    "rss",
    "xml",
    "entry:",
    """
import requests
import xml.etree.ElementTree as ET

resp = requests.get("https://feeds.bbci.co.uk/news/rss.xml")
root = ET.fromstring(resp.content)
for item in root.findall("./channel/item")[:3]:
    print("entry:", item.find("title").text, "|", item.find("link").text)
""",
)
# --- sqlite ---
add(
    "sqlite_fetchall",
    "vklimin/Tech-Interview-Junior-Python-Developer-01",
    "sqlite3.py",
    "sqlite",
    "(1, 'Alice')",
    """
import sqlite3

conn = sqlite3.connect('test.db')
cursor = conn.cursor()
cursor.execute('CREATE TABLE IF NOT EXISTS test (id INTEGER, name TEXT)')
cursor.execute("INSERT INTO test VALUES (1, 'Alice')")
cursor.execute('SELECT * FROM test')
for row in cursor.fetchall():
    print(row)
conn.commit()
conn.close()
""",
)
add(
    "sqlite_books",
    "maciejwieczorek/python",
    "lekcja_7/zad1.py",
    "sqlite",
    "Potop",
    """
import sqlite3
connection = sqlite3.connect('example3.db')
cursor = connection.cursor()
cursor.execute('CREATE TABLE IF NOT EXISTS test (id integer, name text, autor text)')
cursor.execute("INSERT INTO test VALUES(1, 'Pan Tadeusz', 'Adam Mickiewicz')")
cursor.execute("INSERT INTO test VALUES(2, 'Potop', 'Henryk Sienkiewicz')")
connection.commit()
for row in cursor.execute('SELECT * FROM test ORDER BY id'):
    print(row)
connection.close()
""",
)
add(
    "sqlite_users_param",
    "theamishdev/python_full_stack_learning",
    "Flask/Database/database.py",
    "sqlite",
    "Amish",
    """
import sqlite3
conn = sqlite3.connect("test.db")
cursor = conn.cursor()
cursor.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT)")
cursor.execute("INSERT INTO users (name) VALUES (?)", ("Amish",))
conn.commit()
cursor.execute("SELECT * FROM users")
print(cursor.fetchall())
conn.close()
""",
)

for e in E:
    header = (
        f"# corpus: {e['name']} ({e['kind']})\n# source: {'' if e['repo'].startswith('(') else 'github.com/'}{e['repo']} :: {e['path']}\n"
        f"# licence: {e['licence']}\n"
    )
    (HERE / "scripts" / f"{e['name']}.py").write_text(header + e["code"])
manifest = [{k: e[k] for k in ("name", "kind", "repo", "path", "licence", "expect")} for e in E]
(HERE / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n")
print(len(E), "scripts;", sum(e["kind"] != "sqlite" for e in E), "network")
