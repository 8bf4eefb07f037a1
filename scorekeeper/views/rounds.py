"""Pages that record, correct, undo and bring back rounds: they present what the round command answers."""

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..converters import parse_id
from ..forms import RoundForm
from ..reads import follow, history
from ..rules.game import SequenceConflict, place_round, skipped_doubles
from ..selectors import game_to_write
from .common import conflict_message, sheet_for


@login_required
def record_round(request, pk):
    sheet = sheet_for(request.user, pk, write=True, rows=False)
    if sheet.state.finished and request.method != "POST":
        messages.info(request, _("This game is over."))
        return redirect("game", pk=pk)
    form = _round_form(request, sheet, sheet.choosable_doubles)
    return _save_round(request, form, sheet, None)


@login_required
def edit_round(request, pk, number):
    sheet = sheet_for(request.user, pk, write=True, rows=False)
    round_ = sheet.game.rounds.filter(number=number).with_entries().first()
    if round_ is None:
        raise Http404(_("No such round in this game."))
    form = _round_form(request, sheet, [round_.starting_double], RoundForm.initial_for(round_), number)
    return _save_round(request, form, sheet, round_)


def _round_form(request, sheet, doubles, initial=None, number=None) -> RoundForm:
    """The round form: a new one offers the game's open doubles; a sent one takes any double of the
    set, so that the round command, not the form, says when its double was taken meanwhile."""
    offered = list(doubles) or [None]
    sent = doubles if request.method != "POST" else sorted(set(sheet.game.rules.one_pass), reverse=True)
    form = RoundForm(
        request.POST or None,
        seats=sheet.seats_for(number),
        doubles=sent,
        initial={"starting_double": offered[0], "version": sheet.game.version, "number": sheet.next_number}
        | (initial or {}),
    )
    form.offered = offered
    return form


def _save_round(request, form, sheet, round_):
    """Send the round to the round command and show its answer: saved (to the sheet), a question to
    confirm once, theirs beside this entry when another phone saved first, or every problem."""
    player_errors = defaultdict(list)
    surprises, surprise_key = (), ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        submitted = services.submit_round(
            game=sheet.game,
            starting_double=data["starting_double"] if round_ is None else round_.starting_double,
            entries=form.entries(),
            confirm=request.POST.get("confirmed", ""),  # the key of the questions shown, once answered
            expected_version=data["version"],
            by=request.user,
            number=None if round_ is None else round_.number,
            expected_number=data["number"] if round_ is None else None,
        )
        match submitted:
            case services.Saved(round=saved):
                done = _("Recorded round {number}.") if round_ is None else _("Corrected round {number}.")
                messages.success(request, done.format(number=saved.number))  # on the next page shown
                return redirect("game", pk=sheet.game.pk)
            case services.NeedsConfirmation(surprises=surprises, key=surprise_key):
                pass  # shown once; saving the same values again confirms them
            case services.Clash(theirs=theirs) if theirs is not None:
                return _show_clash(request, sheet, submitted)
            case services.Clash(code="game_finished"):
                messages.info(request, _("This game is over."))
                return redirect("game", pk=sheet.game.pk)
            case services.Clash(code="stale") if round_ is None:
                surprises = _moved_on(sheet, form)  # shown once; saving again saves
            case services.Clash(message=message):
                form.add_error(None, message)
            case services.Invalid(errors=fields, round_errors=()):
                for problem in (problem for problems in fields.values() for problem in problems):
                    form.add_error(None, problem)  # `number` ahead of the game: the form is hidden there
            case services.Invalid(round_errors=errors):
                for error in errors:
                    if error.player is None:
                        form.add_error(None, error.message)
                    else:
                        player_errors[error.player].append(error.message)
    # Drawn again with the doubles open when the page was read (and the one chosen, if it went).
    chosen = parse_id(str(form["starting_double"].value()))
    doubles = dict.fromkeys(double for double in [*form.offered, chosen] if double is not None)
    form.fields["starting_double"].choices = [(double, f"{double}-{double}") for double in doubles]
    rows, errors = _round_rows(form, player_errors)
    context = {"sheet": sheet, "form": form, "rows": rows, "round": round_, "errors": errors}
    return render(
        request, "scorekeeper/round_form.html", context | {"surprises": surprises, "surprise_key": surprise_key}
    )


def _moved_on(sheet, form) -> list[str]:
    """A new round's form drawn for an older version of the game: nothing was saved. It is drawn
    again for the game as it is now (its version, its open doubles), saying what changed and which
    doubles its double now skips, so that a double nobody saw open again is never skipped unasked."""
    form.data = form.data.copy()
    form.data["version"] = str(sheet.game.version)
    form.data["number"] = str(sheet.next_number)
    latest = next(iter(history.of_game(sheet.game)), None)
    said = [
        _("{change} while you were entering this round.").format(change=follow.describe(latest))
        if latest is not None
        else _("Someone changed the game while you were entering this round.")
    ]
    rules, last, chosen = sheet.game.rules, sheet.state.last_position, form.cleaned_data["starting_double"]
    try:
        skipped = skipped_doubles(rules, last, place_round(rules, last, chosen))
    except SequenceConflict as conflict:
        return [*said, str(conflict)]
    if skipped:
        doubles = ", ".join(f"{double}-{double}" for double in skipped)
        said.append(_("Saving {double} skips {doubles}.").format(double=f"{chosen}-{chosen}", doubles=doubles))
    return said


def _show_clash(request, sheet, clash):
    """Theirs is kept; this phone's entry stays in the form beside it, ready to replace theirs."""
    theirs = clash.theirs
    data = request.POST.copy()
    data["version"] = str(clash.version)
    data["starting_double"] = str(theirs.starting_double)
    form = RoundForm(data, seats=sheet.seats_for(theirs.number), doubles=[theirs.starting_double])
    form.is_valid()
    rows, _problems = _round_rows(form, {})
    by_player = {entry.player_id: entry for entry in theirs.entries_in_order()}
    mine = {entry.player: entry for entry in form.entries()} if form.is_valid() else {}
    for row in rows:
        row["theirs"] = by_player.get(row["seat"].player_id)
        row["differs"] = _differs(mine.get(row["seat"].player_id), row["theirs"])
    context = {"sheet": sheet, "form": form, "rows": rows, "round": None, "errors": [], "clash": theirs,
               "clash_by": theirs.corrected_by or theirs.recorded_by, "surprises": []}  # fmt: skip
    return render(request, "scorekeeper/round_form.html", context)  # 200: htmx swaps only 2xx pages in


def _differs(mine, theirs) -> bool:
    """Whether this phone's entry for a player says something else than the round saved first: the
    numbers a clash marks, so the table sees at a glance what "Replace with mine" would change."""
    if mine is None or theirs is None:
        return False
    pips = 0 if mine.pips is None and mine.went_out else mine.pips
    typed = (pips, mine.went_out, bool(mine.double_blank), mine.ended_on_double)
    return typed != (theirs.pips, theirs.went_out, theirs.double_blank, theirs.ended_on_double)


def _round_rows(form, player_errors) -> tuple[list[dict], list[dict]]:
    """The form's rows with each player's problems, and the summary of every problem (each linked
    to the field to fix). The first field to fix, or the first pips box, takes the focus."""
    summary = [{"message": message, "target": None} for message in form.non_field_errors()]
    summary += [{"message": m, "target": "id_starting_double"} for m in form["starting_double"].errors]
    rows, focus = [], None
    for row in form.rows():
        name = row["seat"].player.name
        problems = list(player_errors.get(row["seat"].player_id, []))
        for key in ("pips", "tiles_left", "tiles"):
            problems += [f"{name}: {message}" for message in row[key].errors]
        if problems and focus is None:
            focus = row["pips"]
        summary += [{"message": problem, "target": row["pips"].id_for_label} for problem in problems]
        extras = any(row[key].value() not in (None, "") or row[key].errors for key in ("tiles_left", "tiles"))
        rows.append(row | {"problems": problems, "extras_open": extras})
    if focus is None and not summary and rows and not form.is_bound:
        focus = rows[0]["pips"]
    if focus is not None:
        focus.field.widget.attrs["autofocus"] = True
    return rows, summary


@login_required
@require_POST
def undo_round(request, pk):
    game = game_to_write(request.user, pk)
    number, version = parse_id(request.POST.get("number", "")), request.POST.get("version")
    expected = None if version is None else parse_id(version)
    if number is None or (version is not None and expected is None):
        messages.error(request, _("Nothing was undone: reload the game and tap Undo again."))
        return redirect("game", pk=pk)
    try:
        services.undo_last_round(game=game, number=number, expected_version=expected, by=request.user)
    except services.Conflict as conflict:
        messages.error(request, conflict_message(conflict))
    else:
        messages.success(
            request,
            _("Undid round {number}. Bring it back with the button below until the next round is saved.").format(
                number=number
            ),
        )
    return redirect("game", pk=pk)


@login_required
@require_POST
def restore_round(request, pk):
    game = game_to_write(request.user, pk)
    version = request.POST.get("version")
    expected = None if version is None else parse_id(version)
    if version is not None and expected is None:  # a malformed version is refused, never skipped
        messages.error(request, _("Nothing was brought back: reload the game and try again."))
        return redirect("game", pk=pk)
    try:
        restored = services.restore_round(game=game, expected_version=expected, by=request.user)
    except services.Conflict as conflict:
        messages.error(request, conflict_message(conflict))
    else:
        messages.success(request, _("Round {number} is back.").format(number=restored.number))
    return redirect("game", pk=pk)
