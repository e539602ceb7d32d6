"""Admin registrations, one block per area."""

# --- Armies and reference cards (issue #4) ---------------------------------
from django.contrib import admin  # noqa: E402

from battles.models.armies import (  # noqa: E402
    Army,
    ArmyCard,
    CardAbility,
    People,
    ReferenceCard,
)


@admin.register(People)
class PeopleAdmin(admin.ModelAdmin):
    list_display = ["name", "voie"]
    list_filter = ["voie"]
    search_fields = ["name"]


class CardAbilityInline(admin.TabularInline):
    model = CardAbility
    extra = 0


@admin.register(ReferenceCard)
class ReferenceCardAdmin(admin.ModelAdmin):
    list_display = ["name", "people", "rank", "size", "cost", "source", "is_demo"]
    list_filter = ["source", "is_demo", "size", "people__voie", "people"]
    search_fields = ["name", "people__name", "source_detail", "external_id"]
    list_select_related = ["people"]
    raw_id_fields = ["owner"]
    inlines = [CardAbilityInline]


class ArmyCardInline(admin.TabularInline):
    model = ArmyCard
    extra = 0
    raw_id_fields = ["card"]


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "people", "owner", "points_limit", "is_demo", "deleted_at"]
    list_filter = ["is_demo", "people"]
    search_fields = ["name", "people__name", "owner__username"]
    list_select_related = ["people", "owner"]
    raw_id_fields = ["owner"]
    inlines = [ArmyCardInline]


# --- A game's fighters, wounds and activation sequences (issue #15) ----------
# Read-only: the rows mirror the game's log, and only the services write them.
from battles.models.fighters import (  # noqa: E402
    ActivationSequence,
    ActivationSequenceCard,
    Fighter,
    FighterWound,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class FighterWoundInline(ReadOnlyInline):
    model = FighterWound
    fk_name = "fighter"
    fields = ["seq", "turn", "phase", "attacker", "location", "outcome", "steps_added"]
    readonly_fields = fields


@admin.register(Fighter)
class FighterAdmin(ReadOnlyAdmin):
    list_display = [
        "label",
        "game",
        "side",
        "card_name",
        "wound_steps",
        "stunned",
        "routed",
        "eliminated",
        "eliminated_turn",
        "mana",
        "faith",
    ]
    list_filter = ["side", "eliminated", "routed"]
    search_fields = ["label", "card_name", "game__public_id", "game__title"]
    list_select_related = ["game"]
    inlines = [FighterWoundInline]


@admin.register(FighterWound)
class FighterWoundAdmin(ReadOnlyAdmin):
    list_display = [
        "fighter",
        "seq",
        "turn",
        "phase",
        "attacker",
        "location",
        "outcome",
        "steps_added",
        "steps_after",
        "eliminated",
    ]
    list_filter = ["outcome", "eliminated"]
    search_fields = ["fighter__label", "game__public_id"]
    list_select_related = ["fighter", "attacker"]


class ActivationSequenceCardInline(ReadOnlyInline):
    model = ActivationSequenceCard
    fields = ["position", "card_name"]
    readonly_fields = fields


@admin.register(ActivationSequence)
class ActivationSequenceAdmin(ReadOnlyAdmin):
    """Only the sequences of finished games: a running game's stay hidden
    (IV-A-1), even from the staff."""

    list_display = ["game", "turn", "side", "locked_at"]
    list_filter = ["side"]
    list_select_related = ["game"]
    inlines = [ActivationSequenceCardInline]

    def get_queryset(self, request):
        return super().get_queryset(request).of_finished_games()


# --- Spells and miracles (issue #32): typed and corrected by hand ------------
from battles.models.mystic import Miracle, Spell  # noqa: E402


@admin.register(Spell)
class SpellAdmin(admin.ModelAdmin):
    list_display = ["name", "path", "cost_text", "difficulty_text", "points", "source"]
    list_filter = ["source", "path"]
    search_fields = ["name", "path", "description"]
    raw_id_fields = ["owner"]


@admin.register(Miracle)
class MiracleAdmin(admin.ModelAdmin):
    list_display = ["name", "cult", "fervour_text", "difficulty_text", "points"]
    list_filter = ["source", "cult", "universal"]
    search_fields = ["name", "cult", "description"]
    raw_id_fields = ["owner"]
