# corpus: coindesk_class_get (json)
# pattern seen in: (code search result; CoinDesk client class) :: CoinDesk.get_prices
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
import logging
import requests

logger = logging.getLogger(__name__)


class CoinDesk(object):
    @staticmethod
    def get_prices():
        r = requests.get(url='https://api.coindesk.com/v1/bpi/currentprice.json')
        if r.status_code != requests.codes.ok:
            return None, 'bad status code: {}'.format(r.status_code)
        try:
            resp_data = r.json()
        except ValueError:
            return None, 'no json: {}'.format(r.text)
        bpi = resp_data.get('bpi')
        if not bpi:
            return None, 'no bpi'
        return {code: float(v['rate_float']) for code, v in bpi.items()}, None


prices, err = CoinDesk.get_prices()
if err is None:
    for code, rate in sorted(prices.items()):
        print(f"BTC in {code}: {rate:.2f}")
