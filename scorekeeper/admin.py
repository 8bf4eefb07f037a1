from django.contrib import admin

from . import services
from .models import Entry, Game, Invite, Membership, Player, Round, Scorebook, Seat, member_of


class MemberScopedAdmin(admin.ModelAdmin):
    """Superusers see everything; any other staff member only what their scorebooks hold."""

    scorebook_path = "scorebook"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.scorebook_path}__in": member_of(request.user)})


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    autocomplete_fields = ["user"]
    extra = 0


@admin.register(Scorebook)
class ScorebookAdmin(MemberScopedAdmin):
    scorebook_path = "pk"
    list_display = ["name", "personal_of", "created_at"]
    search_fields = ["name", "memberships__user__email"]
    list_select_related = ["personal_of"]
    readonly_fields = ["personal_of"]
    inlines = [MembershipInline]


@admin.register(Invite)
class InviteAdmin(MemberScopedAdmin):
    list_display = ["scorebook", "role", "created_by", "expires_at", "accepted_by"]
    list_select_related = ["scorebook", "created_by", "accepted_by"]
    readonly_fields = ["code", "accepted_by", "accepted_at"]


@admin.register(Player)
class PlayerAdmin(MemberScopedAdmin):
    list_display = ["name", "scorebook", "user", "created_at"]
    search_fields = ["name", "scorebook__name"]
    list_select_related = ["scorebook", "user"]
    autocomplete_fields = ["scorebook", "user"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "name" in form.changed_data:  # as the app renames: its games' versions move on
            services.rename_player(player=obj, name=obj.name, by=request.user)


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["position", "player", "total", "rank", "is_winner"]
    readonly_fields = ["total", "rank", "is_winner"]
    extra = 0


class RoundInline(admin.TabularInline):
    model = Round
    fields = ["number", "starting_double", "blocked", "created_at"]
    readonly_fields = fields
    show_change_link = True
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(MemberScopedAdmin):
    list_display = ["__str__", "scorebook", "tile_set", "status", "round_count", "created_at", "finished_at"]
    list_filter = ["status", "tile_set", "extended", "created_at"]
    search_fields = ["name", "scorebook__name", "players__name"]
    list_select_related = ["scorebook"]
    date_hierarchy = "created_at"
    # The rules are fixed at creation; scores change through the services only.
    readonly_fields = [
        "tile_set",
        "double_blank_penalty",
        "end_on_double_penalty",
        "extended",
        "target_score",
        "first_double",
        "max_rounds",
        "tie_break",
        "status",
        "scorebook",
        "created_by",
        "version",
        "created_at",
        "updated_at",
        "finished_at",
    ]
    inlines = [SeatInline, RoundInline]

    @admin.display(description="rounds")
    def round_count(self, game):
        return game.rounds.count()


class EntryInline(admin.TabularInline):
    model = Entry
    fields = [
        "player",
        "pips",
        "tiles_left",
        "tiles",
        "double_blank",
        "went_out",
        "ended_on_double",
        "penalty",
        "score",
    ]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Round)
class RoundAdmin(MemberScopedAdmin):
    scorebook_path = "game__scorebook"
    list_display = ["__str__", "game", "number", "starting_double", "blocked", "created_at"]
    list_filter = ["starting_double", "blocked", "game__tile_set"]
    search_fields = ["game__name", "game__scorebook__name"]
    list_select_related = ["game"]
    readonly_fields = ["game", "number", "position", "starting_double", "blocked", "recorded_by", "corrected_by"]
    inlines = [EntryInline]

    def has_add_permission(self, request):
        return False
