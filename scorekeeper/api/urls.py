from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
    path("players/", views.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<int:pk>/stats/", views.PlayerStats.as_view(), name="player-stats"),
    path("games/", views.GameList.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetail.as_view(), name="game-detail"),
    path("games/<int:game_pk>/rounds/", views.RoundList.as_view(), name="round-list"),
    path("games/<int:game_pk>/rounds/<int:number>/", views.RoundDetail.as_view(), name="round-detail"),
    path("leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
]
