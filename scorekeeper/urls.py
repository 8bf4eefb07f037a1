from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import (
    converters,  # noqa: F401 - registers <id:...>
    views,
)
from .api import views as api_views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/rounds/new/", views.record_round, name="record_round"),
    path("games/<id:pk>/rounds/<id:number>/edit/", views.edit_round, name="edit_round"),
    path("games/<id:pk>/rounds/undo/", views.undo_round, name="undo_round"),
    path("games/<id:pk>/rename/", views.rename_game, name="rename_game"),
    path("games/<id:pk>/rematch/", views.rematch, name="rematch"),
    path("games/<id:pk>/delete/", views.delete_game, name="delete_game"),
    path("history/", views.history, name="history"),
    path("players/", views.players, name="players"),
    path("players/add/", views.add_player, name="add_player"),
    path("players/<id:pk>/", views.player, name="player"),
    path("players/<id:pk>/delete/", views.delete_player, name="delete_player"),
    path("rules/", views.rules, name="rules"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scorekeeper.api.urls")),
    re_path(r"^api/v1/", api_views.not_found),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
