from allauth.account import views as allauth_views
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import (
    converters,  # noqa: F401 - registers <id:...>
    errors,
    i18n,
    offline,
    views,
)
from .api import views as api_views

# The admin signs in through allauth's login page, so its rate limits hold there too.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/rounds/new/", views.record_round, name="record_round"),
    path("games/<id:pk>/rounds/<id:number>/edit/", views.edit_round, name="edit_round"),
    path("games/<id:pk>/rounds/undo/", views.undo_round, name="undo_round"),
    path("games/<id:pk>/rounds/restore/", views.restore_round, name="restore_round"),
    path("games/<id:pk>/rename/", views.rename_game, name="rename_game"),
    path("games/<id:pk>/rematch/", views.rematch, name="rematch"),
    path("games/<id:pk>/delete/", views.delete_game, name="delete_game"),
    path("games/<id:pk>/history/", views.game_history, name="game_history"),
    path("games/<id:pk>/share/", views.share_game, name="share_game"),
    path("games/<id:pk>/share/revoke/", views.revoke_share, name="revoke_share"),
    path("live/<str:token>/", views.live_page, name="live"),
    path("live/<str:token>/sheet/", views.live_sheet, name="live_sheet"),
    path("live/<str:token>/qr.svg", views.live_qr, name="live_qr"),
    path("history/", views.history, name="history"),
    path("players/", views.players, name="players"),
    path("players/add/", views.add_player, name="add_player"),
    path("players/<id:pk>/", views.player, name="player"),
    path("players/<id:pk>/delete/", views.delete_player, name="delete_player"),
    path("players/<id:pk>/me/", views.link_player, name="link_player"),
    path("me/stats/", views.my_stats, name="my_stats"),
    path("me/delete/", views.delete_account, name="delete_account"),
    path("scorebooks/", views.scorebook_list, name="scorebooks"),
    path("scorebooks/<id:pk>/", views.scorebook, name="scorebook"),
    path("scorebooks/<id:pk>/switch/", views.switch_scorebook, name="switch_scorebook"),
    path("scorebooks/<id:pk>/invites/", views.create_invite, name="create_invite"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/remove/", views.remove_member, name="remove_member"),
    path("scorebooks/<id:pk>/members/<id:user_pk>/role/", views.member_role, name="member_role"),
    path("scorebooks/<id:pk>/delete/", views.delete_scorebook, name="delete_scorebook"),
    path("scorebooks/<id:pk>/import/", views.import_games, name="import_games"),
    path("scorebooks/<id:pk>/trash/", views.trash, name="trash"),
    path("games/<id:pk>/restore/", views.restore_game, name="restore_game"),
    path("export/", views.export, name="export"),
    path("invites/<slug:code>/", views.invite, name="invite"),
    path("invites/<slug:code>/qr.svg", views.invite_qr, name="invite_qr"),
    path("rules/", views.rules, name="rules"),
    path("language/", i18n.set_language, name="set_language"),
    path("sheets/blank/", views.blank_sheet, name="blank_sheet"),
    path("healthz/", errors.healthz, name="healthz"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("accounts/logout/", offline.clears_site_data(allauth_views.logout), name="account_logout"),
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scorekeeper.api.urls")),
    re_path(r"^api/v1/", api_views.not_found),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]

handler400 = "scorekeeper.errors.bad_request"
handler403 = "scorekeeper.errors.permission_denied"
handler404 = "scorekeeper.errors.not_found"
handler500 = "scorekeeper.errors.server_error"
