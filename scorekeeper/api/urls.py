from django.urls import path

from scorekeeper import converters  # noqa: F401 - registers <id:...>

from .views import events, games, live, nights, players, reports, rounds, scorebooks, seasons, seats, story, transfer

app_name = "api"

urlpatterns = [
    path("players/", players.PlayerList.as_view(), name="player-list"),
    path("players/<id:pk>/", players.PlayerDetail.as_view(), name="player-detail"),
    path("players/<id:pk>/merge/", players.PlayerMerge.as_view(), name="player-merge"),
    path("players/<id:pk>/stats/", reports.PlayerStats.as_view(), name="player-stats"),
    path("games/", games.GameList.as_view(), name="game-list"),
    path("games/<id:pk>/", games.GameDetail.as_view(), name="game-detail"),
    path("games/<id:pk>/events/", events.GameEvents.as_view(), name="game-events"),
    path("games/<id:pk>/finish/", games.GameFinish.as_view(), name="game-finish"),
    path("games/<id:pk>/rounds/", rounds.RoundList.as_view(), name="round-list"),
    path("games/<id:pk>/rounds/<id:number>/", rounds.RoundDetail.as_view(), name="round-detail"),
    path("games/<id:pk>/rounds/restore/", rounds.RoundRestore.as_view(), name="round-restore"),
    path("games/<id:pk>/seats/", seats.SeatList.as_view(), name="seat-list"),
    path("games/<id:pk>/seats/changes/last/", seats.LastSeatChange.as_view(), name="seat-change-last"),
    path("games/<id:pk>/seats/<id:player>/", seats.SeatDetail.as_view(), name="seat-detail"),
    path("games/<id:pk>/share/", live.GameShare.as_view(), name="game-share"),
    path("live/<str:token>/", live.LiveView.as_view(), name="live"),
    path("live/<str:token>/events/", events.LiveEvents.as_view(), name="live-events"),
    path("games/<id:pk>/export/", transfer.GameExport.as_view(), name="game-export"),
    path("games/<id:pk>/history/", games.GameHistory.as_view(), name="game-history"),
    path("export/", transfer.Export.as_view(), name="export"),
    path("import/", transfer.Import.as_view(), name="import"),
    path("odds/", story.Odds.as_view(), name="odds"),
    path("leaderboard/", reports.Leaderboard.as_view(), name="leaderboard"),
    path("me/", reports.Me.as_view(), name="me"),
    path("me/stats/", reports.MyStats.as_view(), name="me-stats"),
    path("scorebooks/", scorebooks.ScorebookList.as_view(), name="scorebook-list"),
    path("scorebooks/<id:pk>/", scorebooks.ScorebookDetail.as_view(), name="scorebook-detail"),
    path("scorebooks/<id:pk>/invites/", scorebooks.InviteCreate.as_view(), name="scorebook-invites"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/", scorebooks.MemberDetail.as_view(), name="scorebook-member"),
    path("scorebooks/<id:pk>/seasons/", seasons.SeasonList.as_view(), name="scorebook-seasons"),
    path("seasons/<id:pk>/", seasons.SeasonDetail.as_view(), name="season-detail"),
    path("scorebooks/<id:pk>/nights/", nights.NightList.as_view(), name="scorebook-nights"),
    path("nights/<id:pk>/", nights.NightDetail.as_view(), name="night-detail"),
    path("nights/<id:pk>/events/", events.NightEvents.as_view(), name="night-events"),
    path("nights/<id:pk>/share/", nights.NightShare.as_view(), name="night-share"),
    path("live/nights/<str:token>/", nights.LiveNightView.as_view(), name="night-live"),
    path("live/nights/<str:token>/events/", events.LiveNightEvents.as_view(), name="night-live-events"),
    path("invites/<str:code>/accept/", scorebooks.InviteAccept.as_view(), name="invite-accept"),
]
