from django.urls import path

from scorekeeper import converters  # noqa: F401 - registers <id:...>

from . import views

app_name = "api"

urlpatterns = [
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<id:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<id:pk>/stats/", views.PlayerStats.as_view(), name="player-stats"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<id:pk>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<id:game_pk>/rounds/", views.RoundList.as_view(), name="round-list"),
    path("games/<id:game_pk>/rounds/<id:number>/", views.RoundDetail.as_view(), name="round-detail"),
    path("leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
    path("me/", views.Me.as_view(), name="me"),
]
