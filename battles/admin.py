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
