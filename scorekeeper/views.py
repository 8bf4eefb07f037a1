from django.shortcuts import render

from .models import Game


def home(request):
    games = []
    if request.user.is_authenticated:
        games = Game.objects.for_user(request.user).order_by("status", "-created_at")[:20]
    return render(request, "scorekeeper/home.html", {"games": games})
