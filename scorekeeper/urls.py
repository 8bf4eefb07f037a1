from allauth.account import views as allauth_views
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import (
    converters,  # noqa: F401 - registers <id:...>
    health,
    i18n,
)
from .api.views.common import not_found as api_not_found
from .http import offline
from .views import account, games, live, nights, paper, players, rounds, scorebooks, seasons, seats, transfer

# The admin signs in through allauth's login page, so its rate limits hold there too.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", games.home, name="home"),
    path("games/new/", games.new_game, name="new_game"),
    path("games/paper/", paper.paper_game, name="paper_game"),
    path("games/playing/", games.home_games, name="home_games"),
    path("games/<id:pk>/", games.game, name="game"),
    path("games/<id:pk>/sheet/", games.game_sheet, name="game_sheet"),
    path("games/<id:pk>/rounds/new/", rounds.record_round, name="record_round"),
    path("games/<id:pk>/rounds/<id:number>/edit/", rounds.edit_round, name="edit_round"),
    path("games/<id:pk>/rounds/undo/", rounds.undo_round, name="undo_round"),
    path("games/<id:pk>/rounds/restore/", rounds.restore_round, name="restore_round"),
    path("games/<id:pk>/rename/", games.rename_game, name="rename_game"),
    path("games/<id:pk>/finish/", games.finish_game, name="finish_game"),
    path("games/<id:pk>/casual/", games.casual_game, name="casual_game"),
    path("games/<id:pk>/rematch/", games.rematch, name="rematch"),
    path("games/<id:pk>/seats/undo/", seats.undo_seat_change, name="undo_seat_change"),
    path("games/<id:pk>/seats/<slug:kind>/", seats.seat_change, name="seat_change"),
    path("games/<id:pk>/delete/", games.delete_game, name="delete_game"),
    path("games/<id:pk>/history/", games.game_history, name="game_history"),
    path("games/<id:pk>/share/", live.share_game, name="share_game"),
    path("games/<id:pk>/share/revoke/", live.revoke_share, name="revoke_share"),
    path("live/<str:token>/", live.live_page, name="live"),
    path("live/<str:token>/sheet/", live.live_sheet, name="live_sheet"),
    path("live/<str:token>/qr.svg", live.live_qr, name="live_qr"),
    path("history/", games.history, name="history"),
    path("players/", players.players, name="players"),
    path("players/add/", players.add_player, name="add_player"),
    path("players/merge/", players.merge_players, name="merge_players"),
    path("players/<id:pk>/archive/", players.archive_player, name="archive_player"),
    path("players/<id:pk>/", players.player, name="player"),
    path("players/<id:pk>/delete/", players.delete_player, name="delete_player"),
    path("players/<id:pk>/me/", players.link_player, name="link_player"),
    path("me/stats/", players.my_stats, name="my_stats"),
    path("me/delete/", account.delete_account, name="delete_account"),
    path("scorebooks/", scorebooks.scorebook_list, name="scorebooks"),
    path("scorebooks/<id:pk>/", scorebooks.scorebook, name="scorebook"),
    path("scorebooks/<id:pk>/switch/", scorebooks.switch_scorebook, name="switch_scorebook"),
    path("scorebooks/<id:pk>/invites/", scorebooks.create_invite, name="create_invite"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/remove/", scorebooks.remove_member, name="remove_member"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/role/", scorebooks.member_role, name="member_role"),
    path("scorebooks/<id:pk>/delete/", scorebooks.delete_scorebook, name="delete_scorebook"),
    path("scorebooks/<id:pk>/import/", transfer.import_games, name="import_games"),
    path("scorebooks/<id:pk>/trash/", games.trash, name="trash"),
    path("scorebooks/<id:pk>/seasons/", seasons.season_list, name="seasons"),
    path("seasons/<id:pk>/", seasons.season, name="season"),
    path("seasons/<id:pk>/delete/", seasons.delete_season, name="delete_season"),
    path("scorebooks/<id:pk>/nights/", nights.add_night, name="add_night"),
    path("nights/<id:pk>/", nights.night, name="night"),
    path("nights/<id:pk>/tables/", nights.night_body, name="night_body"),
    path("nights/<id:pk>/delete/", nights.delete_night, name="delete_night"),
    path("nights/<id:pk>/share/", nights.share_night, name="share_night"),
    path("nights/<id:pk>/share/revoke/", nights.revoke_night_share, name="revoke_night_share"),
    path("games/<id:pk>/night/", nights.game_night, name="game_night"),
    path("live/nights/<str:token>/", live.live_page, {"kind": "night"}, name="night_live"),
    path("live/nights/<str:token>/tables/", live.live_sheet, {"kind": "night"}, name="night_live_sheet"),
    path("live/nights/<str:token>/qr.svg", live.live_qr, {"kind": "night"}, name="night_live_qr"),
    path("games/<id:pk>/restore/", games.restore_game, name="restore_game"),
    path("export/", transfer.export, name="export"),
    path("invites/<slug:code>/", scorebooks.invite, name="invite"),
    path("invites/<slug:code>/qr.svg", scorebooks.invite_qr, name="invite_qr"),
    path("rules/", games.rules, name="rules"),
    path("language/", i18n.set_language, name="set_language"),
    path("sheets/blank/", games.blank_sheet, name="blank_sheet"),
    path("healthz/", health.healthz, name="healthz"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("leaderboard/", players.leaderboard, name="leaderboard"),
    path("accounts/logout/", offline.clears_site_data(allauth_views.logout), name="account_logout"),
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scorekeeper.api.urls")),
    re_path(r"^api/v1/", api_not_found),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Sign-in's own document (allauth's headless API), in the same browsable page.
    path("api/docs/sign-in/", SpectacularSwaggerSplitView.as_view(url="/_allauth/openapi.json"), name="sign-in-docs"),
]

handler400 = "scorekeeper.http.errors.bad_request"
handler403 = "scorekeeper.http.errors.permission_denied"
handler404 = "scorekeeper.http.errors.not_found"
handler500 = "scorekeeper.http.errors.server_error"
