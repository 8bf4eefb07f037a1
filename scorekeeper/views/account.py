"""The account's own pages: deleting it."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..http import offline
from ..services import scorebooks


@login_required
def delete_account(request):
    """Your data and your account: download everything, or delete the account after saying plainly
    what happens to each scorebook."""
    fates = {
        "deleted": _("deleted, with its games and players (nobody else uses it)"),
        "left": _("kept by its other members; you leave it"),
    }
    plan = [
        (fate.scorebook, _("handed over: {email} becomes its owner").format(email=fate.heir.user.email)
         if fate.kind == "handed_over" else fates[fate.kind])
        for fate in scorebooks.deletion_plan(request.user)
    ]  # fmt: skip
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm", "").strip().lower() != request.user.email.lower():
            error = _("Type your email address exactly to confirm.")
        else:
            scorebooks.delete_account(user=request.user)
            logout(request)
            messages.success(request, _("Your account is deleted."))
            response = redirect("home")
            response["Clear-Site-Data"] = offline.CLEAR_SITE_DATA  # as logging out does
            return response
    return render(request, "scorekeeper/delete_account.html", {"plan": plan, "error": error})
