"""Scorebooks and their members: create, rename, delete, invite, accept, remove, change roles,
delete an account. One transaction each; views turn Forbidden into 403, Conflict into 409 and
Http404 into 404. Which scorebook a user works in is read by selectors.current_scorebook."""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from ..caches.rule import announce
from ..errors import Conflict, Forbidden, InvalidInput
from ..models import HistoryAction, Invite, Membership, Player, Role, Scorebook


def require_owner(role: str | None, what: str) -> None:
    if role != Role.OWNER:
        raise Forbidden(_("Only an owner of this scorebook can {action}.").format(action=what))


def switch(user, book: Scorebook) -> None:
    Membership.objects.filter(user=user, scorebook=book).update(last_used_at=timezone.now())
    announce("scorebook switched")  # the home page follows its own fingerprint of the games


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise InvalidInput({"name": [_("Give the scorebook a name.")]})
    return name


@transaction.atomic
def create(*, by, name: str) -> Scorebook:
    Scorebook.personal_for(by)  # every user has one before any other
    book = Scorebook.objects.create(name=_name(name))
    Membership.objects.create(scorebook=book, user=by, role=Role.OWNER, last_used_at=timezone.now())
    book.role = Role.OWNER
    announce("scorebook created")
    return book


def rename(*, book: Scorebook, role: str | None, name: str) -> Scorebook:
    require_owner(role, _("rename it"))
    book.name = _name(name)
    book.save(update_fields=["name"])
    announce("scorebook renamed", scorebooks=[book.pk])
    return book


@transaction.atomic
def delete(*, book: Scorebook, role: str | None) -> None:
    require_owner(role, _("delete it"))
    if book.personal:
        raise Conflict(_("Your personal scorebook cannot be deleted."), "personal_scorebook")
    if book.games.alive().exists():
        raise Conflict(
            _("{name} still has games: delete them first.").format(name=book.shown_name), "scorebook_has_games"
        )
    announce("scorebook deleted", scorebooks=[book.pk])
    book.delete()


def invite(*, book: Scorebook, role: str | None, by, invite_role: str) -> Invite:
    require_owner(role, _("invite members"))
    if invite_role not in (Role.SCORER, Role.VIEWER):
        raise InvalidInput({"role": [_('Choose "scorer" or "viewer".')]})
    made = Invite.objects.create(scorebook=book, role=invite_role, created_by=by)
    announce("invite made")
    return made


@transaction.atomic
def accept(*, code: str, user) -> Scorebook:
    """Join with the invite's role. Unknown, expired or used by someone else: 404; used by this
    user who has since left, been removed or had their role changed: 404 too (a code is used once,
    ever). The same user again, still a member with its role, or someone already a member: nothing
    changes (and an unused code stays unused)."""
    invite = Invite.objects.select_for_update().usable_by(user).filter(code=code).select_related("scorebook").first()
    if invite is None:
        raise Http404(_("This invite does not exist, has expired or was already used."))
    book = invite.scorebook
    if not Membership.objects.filter(scorebook=book, user=user).exists():
        Scorebook.personal_for(user)
        Membership.objects.create(scorebook=book, user=user, role=invite.role, last_used_at=timezone.now())
        invite.accepted_by, invite.accepted_at = user, timezone.now()
        invite.save(update_fields=["accepted_by", "accepted_at"])
        announce("member joined", scorebooks=[book.pk])
    return book


@transaction.atomic
def remove_member(*, book: Scorebook, role: str | None, by, user_id: int) -> None:
    """An owner removes a member, or a member leaves (user_id is their own); the last owner stays."""
    if user_id != by.pk:
        require_owner(role, _("remove members"))
    members = list(Membership.objects.select_for_update().filter(scorebook=book))  # one change at a time
    target = next((m for m in members if m.user_id == user_id), None)
    if target is None:
        raise Http404(_("No such member in this scorebook."))
    owners = [m for m in members if m.role == Role.OWNER]
    if target.role == Role.OWNER and len(owners) == 1:
        raise Conflict(_("The last owner cannot leave: make someone else an owner first."), "last_owner")
    target.delete()
    announce("member removed", scorebooks=[book.pk])  # their polls are checked in full again
    Scorebook.objects.filter(pk=book.pk, personal_of_id=user_id).update(personal_of=None)
    # Whoever is no longer a member is nobody's player here: their email leaves the scorebook.
    for player in Player.objects.select_for_update().filter(scorebook=book, user_id=user_id):
        player.user, player._history_user, player._change_reason = None, by, HistoryAction.PLAYER_UNLINKED
        player.save(update_fields=["user"])


def set_role(*, book: Scorebook, role: str | None, user_id: int, new_role: str) -> Membership:
    require_owner(role, _("change roles"))
    if new_role not in Role.values:
        raise InvalidInput({"role": [_('Choose "owner", "scorer" or "viewer".')]})
    with transaction.atomic():
        members = list(Membership.objects.select_for_update().filter(scorebook=book))
        target = next((m for m in members if m.user_id == user_id), None)
        if target is None:
            raise Http404(_("No such member in this scorebook."))
        if target.role == Role.OWNER and new_role != Role.OWNER and sum(m.role == Role.OWNER for m in members) == 1:
            raise Conflict(_("The last owner cannot step down: make someone else an owner first."), "last_owner")
        target.role = new_role
        target.save(update_fields=["role"])
        # A demoted scorer's kept sheet page offered the round form: it goes with the game's stamp.
        announce("role changed", scorebooks=[book.pk])
    return target


def hand_over(memberships) -> Membership | None:
    """Who becomes owner when the last owner goes: the longest-standing scorer, else viewer."""
    ranked = sorted(memberships, key=lambda m: (m.role != Role.SCORER, m.joined_at, m.pk))
    return ranked[0] if ranked else None


@dataclass(frozen=True)
class Fate:
    """What deleting an account does to one of its scorebooks: "deleted" (nobody else uses it),
    "handed_over" (its last owner goes: `heir` becomes owner) or "left" (the others keep it)."""

    scorebook: Scorebook
    kind: str
    heir: Membership | None = None


def deletion_plan(user, *, lock: bool = False) -> list[Fate]:
    """The fate of each of `user`'s scorebooks if the account were deleted now: the one policy the
    confirmation page shows and delete_account carries out."""
    mine = Membership.objects.filter(user=user).select_related("scorebook").order_by("scorebook_id")
    plan = []
    for membership in mine.select_for_update() if lock else mine:
        others = list(
            Membership.objects.filter(scorebook=membership.scorebook).exclude(user=user).select_related("user")
        )
        if not others:
            plan.append(Fate(membership.scorebook, "deleted"))
        elif membership.role == Role.OWNER and not any(m.role == Role.OWNER for m in others):
            plan.append(Fate(membership.scorebook, "handed_over", hand_over(others)))
        else:
            plan.append(Fate(membership.scorebook, "left"))
    return plan


@transaction.atomic
def delete_account(*, user) -> dict:
    """Delete an account and everything that is only its own, as deletion_plan says. Versions the
    history keeps and rounds it recorded stay, credited to nobody. Says what happened, per scorebook."""
    from ..models import Game, Round

    outcome = {"handed_over": [], "deleted": [], "left": []}
    plan = deletion_plan(user, lock=True)
    # Said before the scorebooks nobody else uses go, so their games' entries are forgotten too; and
    # every game that names the account (a round it recorded or corrected, a game it started), in
    # scorebooks it has left as well: kept answers name the recorder, who is nobody from now on.
    named = Round.objects.filter(Q(recorded_by=user) | Q(corrected_by=user)).values_list("game_id", flat=True)
    games = {*named, *Game.objects.filter(created_by=user).values_list("pk", flat=True)}
    announce("account deleted", scorebooks=[fate.scorebook.pk for fate in plan], accounts=[user.pk], games=games)
    for fate in plan:
        book = fate.scorebook
        if fate.kind == "deleted":
            outcome["deleted"].append(book.name)
            book.delete()
            continue
        if fate.kind == "handed_over":
            fate.heir.role = Role.OWNER
            fate.heir.save(update_fields=["role"])
            outcome["handed_over"].append((book.name, fate.heir.user.email))
        else:
            outcome["left"].append(book.name)
        Scorebook.objects.filter(pk=book.pk, personal_of=user).update(personal_of=None)
    # The kept versions point at the user by id only (no database constraint): make them nobody's.
    Player.history.filter(user_id=user.pk).update(user_id=None)
    Player.history.filter(history_user_id=user.pk).update(history_user_id=None)
    Game.history.filter(created_by_id=user.pk).update(created_by_id=None)
    Game.history.filter(history_user_id=user.pk).update(history_user_id=None)
    Round.history.filter(recorded_by_id=user.pk).update(recorded_by_id=None)
    Round.history.filter(corrected_by_id=user.pk).update(corrected_by_id=None)
    Round.history.filter(history_user_id=user.pk).update(history_user_id=None)
    user.delete()
    return outcome
