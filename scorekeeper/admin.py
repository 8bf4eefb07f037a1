from django.contrib import admin

from .models import Entry, Game, Player, Round, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__email"]
    list_select_related = ["owner"]
    autocomplete_fields = ["owner"]


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
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "owner", "tile_set", "status", "round_count", "created_at", "finished_at"]
    list_filter = ["status", "tile_set", "extended", "created_at"]
    search_fields = ["name", "owner__email", "players__name"]
    list_select_related = ["owner"]
    date_hierarchy = "created_at"
    # The rules are fixed at creation; scores change through the services only.
    readonly_fields = [
        "tile_set",
        "double_blank_penalty",
        "end_on_double_penalty",
        "extended",
        "target_score",
        "status",
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
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "number", "starting_double", "blocked", "created_at"]
    list_filter = ["starting_double", "blocked", "game__tile_set"]
    search_fields = ["game__name", "game__owner__email"]
    list_select_related = ["game"]
    readonly_fields = ["game", "number", "position", "starting_double", "blocked"]
    inlines = [EntryInline]

    def has_add_permission(self, request):
        return False
