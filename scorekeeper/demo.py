"""Demo data: an account, its players, and games dealt from a shuffled set.

Every round is dealt from real tiles, so it passes the same checks as one entered at the table.
"""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from . import services
from .models import Player, Scorebook
from .rules.deal import suggested_deal
from .rules.game import GameRules, open_positions
from .rules.rounds import EntryInput, Seat, score_round
from .rules.scoring import PlayedRound, progress
from .rules.tiles import DOUBLE_BLANK, all_tiles, double
from .services import ratings

DEMO_PASSWORD = "table-talk-42"


def demo_user(email: str):
    """The demo account with this email (created if missing), password "table-talk-42"."""
    user, created = get_user_model().objects.get_or_create(email=email)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


def demo_players(owner, names) -> list[Player]:
    """Players of `owner`'s personal scorebook with these names (created if missing)."""
    book = Scorebook.personal_for(owner)
    return [Player.objects.get_or_create(scorebook=book, name=name)[0] for name in names]


def deal_round(rules: GameRules, players: list[int], starting_double: int, rng: random.Random) -> list[EntryInput]:
    """Shuffle the set less the starting double, deal, and end the round the way tables do."""
    tiles = [tile for tile in all_tiles(rules.tile_set) if tile != double(starting_double)]
    rng.shuffle(tiles)
    per_hand = suggested_deal(rules.tile_set, len(players)).tiles
    hands = [tiles[i * per_hand : (i + 1) * per_hand] for i in range(len(players))]
    went_out = rng.randrange(len(players)) if rng.random() < 0.92 else None
    entries = []
    for seat, (player, hand) in enumerate(zip(players, hands, strict=True)):
        if seat == went_out:
            entries.append(EntryInput(player=player, pips=0, went_out=True, ended_on_double=rng.random() < 0.08))
            continue
        kept = hand[: max(1, min(len(hand), int(rng.expovariate(1 / 4)) + 1))]
        entries.append(
            EntryInput(
                player=player,
                pips=sum(tile.pips for tile in kept),
                tiles_left=len(kept) if rng.random() < 0.5 else None,
                double_blank=DOUBLE_BLANK in kept,
            )
        )
    return entries


def play_game(rules: GameRules, players: list[int], rng: random.Random) -> list[tuple[int, list[EntryInput]]]:
    """Rounds until the game ends: the sequence once, or passes until someone reaches the target."""
    seats = [Seat(player, "") for player in players]
    rounds, played, position = [], [], 0
    while True:
        starting = rules.double_at(position)
        entries = deal_round(rules, players, starting, rng)
        scored = score_round(rules, starting, seats, entries)
        rounds.append((starting, entries))
        played.append(PlayedRound(position, {entry.player: entry.score for entry in scored.entries}))
        if progress(rules, players, played).finished:
            return rounds
        # Now and then nobody holds the next double and the table skips it for the next one open.
        later = open_positions(rules, position)
        position = later[1] if len(later) > 1 and rng.random() < 0.03 else later[0]


RULE_CHOICES = [
    (0.55, GameRules()),
    (0.2, GameRules(tile_set=9, double_blank_penalty=25)),
    (0.1, GameRules(tile_set=15)),
    (0.05, GameRules(tile_set=6)),
    (0.05, GameRules(extended=True)),
    (0.05, GameRules(target_score=400)),
]


@ratings.deferring  # one replay of the ratings at the end, not one per game
def seed_games(
    owner, players: list[Player], games: int, rng: random.Random, *, days: int = 730, progress=None, scorebook=None
):
    """Finished games among `players` (of `scorebook`, the owner's personal one by default), spread
    over the last `days` days."""
    weights, choices = zip(*RULE_CHOICES, strict=True)
    now = timezone.now()
    made = []
    for _ in range(games):
        table = rng.sample(players, rng.randint(2, min(6, len(players))))
        rules = rng.choices(choices, weights)[0]
        ids = [player.pk for player in table]
        made.append(
            services.import_game(
                by=owner,
                players=ids,
                rules=rules,
                rounds=play_game(rules, ids, rng),
                name=rng.choice(["Friday", "Game night", "Family", "Club", ""]),
                played_at=now - timedelta(days=rng.uniform(0, days)),
                scorebook=scorebook,
            )
        )
        if progress:
            progress.update(1)
    return made
