"""A club night's standings (docs/architecture.md, "Nights"), without a database."""

from scorekeeper.rules.nights import NightRow, night_standings


def ranked(rows):
    return [(row.name, row.rank) for row in night_standings(rows)]


def test_the_most_place_points_rank_first():
    rows = [NightRow(1, "Ann", 2, 100, 30), NightRow(2, "Ben", 2, 175, 40), NightRow(3, "Cy", 1, 0, 5)]
    assert ranked(rows) == [("Ben", 1), ("Ann", 2), ("Cy", 3)]


def test_level_points_go_to_the_lower_summed_total():
    rows = [NightRow(1, "Ann", 2, 125, 30), NightRow(2, "Ben", 2, 125, 12), NightRow(3, "Cy", 2, 50, 1)]
    assert ranked(rows) == [("Ben", 1), ("Ann", 2), ("Cy", 3)]


def test_level_points_and_totals_share_a_rank_and_the_next_counts_on():
    rows = [NightRow(3, "cy", 2, 125, 12), NightRow(1, "Ann", 2, 125, 12), NightRow(2, "Ben", 1, 25, 0)]
    assert ranked(rows) == [("Ann", 1), ("cy", 1), ("Ben", 3)]  # level ones by name, whatever the case


def test_a_night_without_a_finished_table_has_no_standings():
    assert night_standings([]) == []
