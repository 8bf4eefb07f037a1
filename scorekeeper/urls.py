from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views
from .api import views as api_views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scorekeeper.api.urls")),
    re_path(r"^api/v1/", api_views.not_found),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
