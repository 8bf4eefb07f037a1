from django.db import migrations, models

# The rules' columns when this migration was written (later options keep their defaults).
RULE_FIELDS = ("tile_set", "double_blank_penalty", "end_on_double_penalty", "extended", "target_score")

BATCH = 500  # games per pass: three reads and one bulk update each, on SQLite and PostgreSQL alike


def fill_state(apps, schema_editor):
    """Derive and save the whole state of every game (the trash's too) from its entries, flags
    included, with the rules module, as the services do on every change."""
    from scorekeeper.rules.game import GameRules
    from scorekeeper.rules.scoring import RoundResult, derive
    from scorekeeper.rules.snapshot import dump

    Game, Seat, Entry = (apps.get_model("scorekeeper", name) for name in ("Game", "Seat", "Entry"))
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        games = list(Game.objects.filter(pk__in=ids[start : start + BATCH]).order_by("pk"))
        seats: dict[int, list[int]] = {}
        for game_id, player in (
            Seat.objects.filter(game__in=games).order_by("game", "position").values_list("game_id", "player_id")
        ):
            seats.setdefault(game_id, []).append(player)
        rounds: dict[int, dict[int, dict]] = {}
        entries = Entry.objects.filter(round__game__in=games).order_by("round__game", "round__number", "position")
        for game_id, number, position, player, score, went_out, blank, ended in entries.values_list(
            "round__game_id", "round__number", "round__position", "player_id", "score", "went_out", "double_blank",
            "ended_on_double",
        ):  # fmt: skip
            line = rounds.setdefault(game_id, {}).setdefault(
                number, {"position": position, "scores": {}, "flags": ([], [], [])}
            )
            line["scores"][player] = score
            for flag, holder in zip((went_out, blank, ended), line["flags"], strict=True):
                if flag:
                    holder.append(player)
        for game in games:
            results = [
                RoundResult(line["position"], line["scores"], *(frozenset(holder) for holder in line["flags"]))
                for _number, line in sorted(rounds.get(game.pk, {}).items())
            ]
            rules = GameRules(**{name: getattr(game, name) for name in RULE_FIELDS})
            state = derive(rules, [(player, "") for player in seats.get(game.pk, [])], results)
            game.state = dump(state, results)
        Game.objects.bulk_update(games, ["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0014_invite_used_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="state",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill_state, migrations.RunPython.noop),
    ]
