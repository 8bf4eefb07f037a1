"""Pages of scorebooks: members, roles, invites and switching between books."""

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, F
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..errors import InvalidInput
from ..forms import InviteForm, NightForm, ScorebookForm, TimeZoneForm
from ..models import Invite, Membership, Role, Scorebook
from ..reads import nights
from ..selectors import scorebook_for
from ..services import scorebooks, seasons
from .common import qr_svg, safe_next


@login_required
def scorebook_list(request):
    """Your scorebooks (switch with one tap) and a new one."""
    Scorebook.personal_for(request.user)
    form = ScorebookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        book = scorebooks.create(by=request.user, name=form.cleaned_data["name"])
        messages.success(
            request, _("Created {name}: invite the people who keep score with you.").format(name=book.shown_name)
        )
        return redirect("scorebook", pk=book.pk)
    books = Scorebook.objects.for_user(request.user).annotate(member_count=Count("memberships", distinct=True))
    context = {"books": books.order_by(F("personal_of").desc(nulls_last=True), "name", "id"), "form": form,
               "current": selectors.current_scorebook(request.user)}  # fmt: skip
    return render(request, "scorekeeper/scorebooks.html", context)


@login_required
def scorebook(request, pk, night_form=None):
    """Members and roles, invites (owners), rename, leave, delete; its club nights (scorers add one)."""
    book = scorebook_for(request.user, pk)
    form = ScorebookForm(initial={"name": book.shown_name})
    zone_form = TimeZoneForm(initial={"time_zone": book.time_zone}, prefix="zone")
    if request.method == "POST" and "zone-time_zone" in request.POST:
        zone_form = TimeZoneForm(request.POST, prefix="zone")
        if zone_form.is_valid():
            try:
                seasons.set_time_zone(book=book, role=book.role, time_zone=zone_form.cleaned_data["time_zone"])
            except InvalidInput as invalid:
                for problem in invalid.errors.get("time_zone", []):
                    zone_form.add_error("time_zone", problem)
            else:
                messages.success(request, _("Time zone set to {zone}.").format(zone=book.time_zone))
                return redirect("scorebook", pk=pk)
    elif request.method == "POST" and night_form is None:
        form = ScorebookForm(request.POST)
        if form.is_valid():
            scorebooks.rename(book=book, role=book.role, name=form.cleaned_data["name"])
            messages.success(request, _("Renamed to {name}.").format(name=book.shown_name))
            return redirect("scorebook", pk=pk)
    invite = None
    code = request.GET.get("invite")
    if code and book.role == "owner":
        invite = book.invites.unused().filter(code=code).first()
    members = list(book.memberships.select_related("user").order_by("joined_at", "id"))
    owners = sum(member.role == Role.OWNER for member in members)
    context = {
        "book": book,
        "form": form,
        "zone_form": zone_form,
        "members": members,
        # The last owner cannot leave (scorebooks.remove_member refuses): no Leave button to refuse with.
        "can_leave": not (book.role == Role.OWNER and owners == 1),
        "invite_form": InviteForm(),
        "invite": invite,
        "invite_url": request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})) if invite else "",
        "is_owner": book.role == "owner",
        "roles": Role.choices,
        "nights": nights.nights_of(book),
        "night_form": (night_form or NightForm(initial={"date": book.today()})) if book.can_score else None,
    }
    return render(request, "scorekeeper/scorebook.html", context)


@login_required
@require_POST
def switch_scorebook(request, pk):
    book = scorebook_for(request.user, pk)
    scorebooks.switch(request.user, book)
    messages.success(request, _("Now keeping score in {name}.").format(name=book.shown_name))
    return redirect(safe_next(request) or "home")


@login_required
@require_POST
def create_invite(request, pk):
    book = scorebook_for(request.user, pk)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose scorer or viewer for the invite."))
        return redirect("scorebook", pk=pk)
    invite = scorebooks.invite(book=book, role=book.role, by=request.user, invite_role=form.cleaned_data["role"])
    return redirect(f"{reverse('scorebook', kwargs={'pk': pk})}?invite={invite.code}#invite")


@login_required
def invite_qr(request, code):
    """The invite link as an SVG QR code (segno), for the owner who made it to show at the table."""
    invite = get_object_or_404(
        Invite.objects.filter(
            scorebook__in=Membership.objects.filter(user=request.user, role="owner").values("scorebook")
        ),
        code=code,
    )
    return qr_svg(request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})), _("Invite QR code"))


def invite(request, code):
    """Join a scorebook from an invite link: say who invites you to which scorebook as what, then
    one tap. Signed out, the same words and the way to sign up or log in, which comes back here
    (allauth keeps `next`); joining itself needs an account."""
    found = Invite.objects.usable_by(request.user).filter(code=code).select_related("scorebook", "created_by").first()
    if found is None:
        raise Http404(_("This invite does not exist, has expired or was already used."))
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "scorekeeper/invite.html", {"invite": found, "member": None})
    if request.method == "POST":
        book = scorebooks.accept(code=code, user=request.user)
        scorebooks.switch(request.user, book)
        messages.success(request, _("You joined {name}.").format(name=book.shown_name))
        return redirect("home")
    member = found.scorebook.memberships.filter(user=request.user).first()
    if member and request.session.pop(JOINED_BY_INVITE, None) == code:
        return redirect("home")  # joined as they signed up (join_on_sign_up): home says so
    return render(request, "scorekeeper/invite.html", {"invite": found, "member": member})


JOINED_BY_INVITE = "joined_by_invite"  # the session's note of the invite a sign-up just joined by


def join_on_sign_up(request, user) -> None:
    """ "Sign up and join": a sign-up whose `next` is an invite's page (accounts.adapter) joins its
    scorebook there and then, and that scorebook becomes the current one; the invite's page, reached
    next, sends them home, where "You joined ..." says so. No second "Join" tap. An invite expired
    or used meanwhile joins nothing, and its page says why."""
    try:
        match = resolve(urlsplit(request.POST.get("next") or request.GET.get("next") or "").path)
    except Resolver404:
        return
    if match.url_name != "invite":
        return
    try:
        book = scorebooks.accept(code=match.kwargs["code"], user=user)
    except Http404:
        return
    scorebooks.switch(user, book)
    request.session[JOINED_BY_INVITE] = match.kwargs["code"]
    messages.success(request, _("You joined {name}.").format(name=book.shown_name))


@login_required
@require_POST
def remove_member(request, pk, user_pk):
    book = scorebook_for(request.user, pk)
    try:
        scorebooks.remove_member(book=book, role=book.role, by=request.user, user_id=user_pk)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("scorebook", pk=pk)
    if user_pk == request.user.pk:
        messages.success(request, _("You left {name}.").format(name=book.shown_name))
        return redirect("scorebooks")
    messages.success(request, _("Removed from the scorebook."))
    return redirect("scorebook", pk=pk)


@login_required
@require_POST
def member_role(request, pk, user_pk):
    book = scorebook_for(request.user, pk)
    try:
        scorebooks.set_role(book=book, role=book.role, user_id=user_pk, new_role=request.POST.get("role", ""))
    except (services.Conflict, services.InvalidInput) as problem:
        messages.error(request, str(problem))
    else:
        messages.success(request, _("Role changed."))
    return redirect("scorebook", pk=pk)


@login_required
@require_POST
def delete_scorebook(request, pk):
    book = scorebook_for(request.user, pk)
    try:
        scorebooks.delete(book=book, role=book.role)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("scorebook", pk=pk)
    messages.success(request, _("Deleted {name}.").format(name=book.shown_name))
    return redirect("scorebooks")
