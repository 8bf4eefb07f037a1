"""Server-rendered SVG charts (pygal, with no script: nothing is fetched from another host)."""

import pygal
from django.utils.safestring import mark_safe
from pygal.style import Style

STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#0f172a",
    foreground_strong="#0f172a",
    foreground_subtle="#cbd5e1",
    colors=(
        "#14532d",
        "#b45309",
        "#1d4ed8",
        "#be185d",
        "#7c3aed",
        "#0f766e",
        "#b91c1c",
        "#4d7c0f",
        "#334155",
        "#a16207",
    ),
    font_family="system-ui, sans-serif",
    label_font_size=14,
    major_label_font_size=14,
    legend_font_size=15,
    value_font_size=13,
)
OPTIONS = {
    "js": [],  # pygal links a CDN script by default
    "style": STYLE,
    "width": 390,
    "height": 300,
    "disable_xml_declaration": True,
    "legend_at_bottom": True,
    "legend_at_bottom_columns": 3,
    "show_y_guides": True,
    "dots_size": 3,
    "margin": 8,
    "explicit_size": False,
}


def _render(chart, title: str) -> str:
    svg = chart.render(is_unicode=True)
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{title}" ', 1))


def running_totals(sheet) -> str | None:
    """One line per player: their total after each round played."""
    played = [row for row in sheet.rows if row.round]
    if not played:
        return None
    chart = pygal.Line(**OPTIONS, title="Running totals", x_title="starting double")
    chart.x_labels = [f"{row.starting_double}-{row.starting_double}" for row in played]
    for index, seat in enumerate(sheet.seats):
        chart.add(seat.player.name, [row.cells[index].total for row in played])
    return _render(chart, "Running totals per player after each round")


def game_totals(name: str, totals) -> str | None:
    """A player's total in each of their recent finished games, oldest first."""
    if not totals:
        return None
    chart = pygal.Line(**OPTIONS, title=f"{name}: game totals", show_legend=False, x_label_rotation=30)
    chart.x_labels = [when.strftime("%d %b %y") for when, _, _ in totals]
    chart.x_labels_major_count = 6
    chart.show_minor_x_labels = False
    chart.add(name, [{"value": total, "label": "won" if won else ""} for _, total, won in totals])
    return _render(chart, f"{name}'s total in each recent game")
