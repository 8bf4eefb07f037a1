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
    path("games/<id:game_pk>/rounds/restore/", views.RoundRestore.as_view(), name="round-restore"),
    path("games/<id:game_pk>/share/", views.GameShare.as_view(), name="game-share"),
    path("live/<str:token>/", views.LiveView.as_view(), name="live"),
    path("games/<id:game_pk>/export/", views.GameExport.as_view(), name="game-export"),
    path("games/<id:game_pk>/history/", views.GameHistory.as_view(), name="game-history"),
    path("export/", views.Export.as_view(), name="export"),
    path("import/", views.Import.as_view(), name="import"),
    path("leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
    path("me/", views.Me.as_view(), name="me"),
    path("me/stats/", views.MyStats.as_view(), name="me-stats"),
    path("scorebooks/", views.ScorebookList.as_view(), name="scorebook-list"),
    path("scorebooks/<id:pk>/", views.ScorebookDetail.as_view(), name="scorebook-detail"),
    path("scorebooks/<id:pk>/invites/", views.InviteCreate.as_view(), name="scorebook-invites"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/", views.MemberDetail.as_view(), name="scorebook-member"),
    path("invites/<str:code>/accept/", views.InviteAccept.as_view(), name="invite-accept"),
]
