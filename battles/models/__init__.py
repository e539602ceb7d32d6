"""The battles app's models, one module per area; import them from here."""

# The league's models live in its wing (battles/league/models/), app label
# "battles" unchanged. Migrations 0007 and 0016 name two defaults by their
# first home (battles.models.league.default_tiebreakers, ...): these names keep
# answering, so the migrations stay as they were written.
import sys as _sys  # noqa: E402

from battles.league.models import league, tournament  # noqa: E402
from battles.league.models.league import (  # noqa: F401, E402
    Club,
    ClubAudit,
    ClubRole,
    GameOutcome,
    Invitation,
    LeagueResult,
    Membership,
    ResultEntry,
    ResultStatus,
    Season,
)
from battles.league.models.tournament import (  # noqa: F401, E402
    Tournament,
    TournamentAdjustment,
    TournamentPairing,
    TournamentPlayer,
    TournamentRound,
)
from battles.models.accounts import (  # noqa: F401
    AccountProfile,
    RecoveryCode,
    SignedInDevice,
)
from battles.models.agreement import ResultAgreement, Verdict  # noqa: F401
from battles.models.armies import (  # noqa: F401
    Army,
    ArmyCard,
    CardAbility,
    People,
    ReferenceCard,
)
from battles.models.fighters import (  # noqa: F401, E402
    ActivationSequence,
    ActivationSequenceCard,
    Fighter,
    FighterWound,
)
from battles.models.games import (  # noqa: F401, E402
    DiceMode,
    Game,
    GameEvent,
    GameMode,
    GameSeat,
    JoinLink,
    JoinLinkRole,
    SeatRole,
)
from battles.models.health import HealthProbe  # noqa: F401, E402
from battles.models.identity import Owner  # noqa: F401, E402
from battles.models.mystic import Miracle, Spell  # noqa: F401, E402
from battles.models.once import FormSubmission  # noqa: F401, E402
from battles.models.ratelimit import RateLimitHit  # noqa: F401, E402

_sys.modules[f"{__name__}.league"] = league
_sys.modules[f"{__name__}.tournament"] = tournament
