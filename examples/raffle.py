"""Draw raffle winners: shuffle the entrants, pick prizes, issue ticket ids."""

import random
import uuid
from secrets import token_hex

ENTRANTS = ["ana", "bo", "chen", "dara", "eli", "fatima", "gus", "hana", "ivo", "jun"]
PRIZES = ["bike", "headphones", "mug"]


def draw(entrants: list[str], prizes: list[str]) -> dict[str, str]:
    pool = list(entrants)
    random.shuffle(pool)
    return dict(zip(prizes, pool))


def main() -> None:
    tickets = {name: uuid.uuid4().hex[:8] for name in ENTRANTS}
    winners = draw(ENTRANTS, PRIZES)
    for prize, name in winners.items():
        print(f"{prize:>10}: {name} (ticket {tickets[name]})")
    runner_up = random.choice([n for n in ENTRANTS if n not in winners.values()])
    print(f"runner-up: {runner_up}; audit token {token_hex(4)}")
    print("lucky numbers:", sorted(random.sample(range(1, 50), 6)))


if __name__ == "__main__":
    main()
