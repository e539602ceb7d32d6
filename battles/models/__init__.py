"""The battles app's models, one module per area; import them from here."""

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
from battles.models.league import (  # noqa: F401, E402
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
from battles.models.mystic import Miracle, Spell  # noqa: F401, E402
from battles.models.once import FormSubmission  # noqa: F401, E402
from battles.models.ratelimit import RateLimitHit  # noqa: F401, E402
from battles.models.tournament import (  # noqa: F401, E402
    Tournament,
    TournamentAdjustment,
    TournamentPairing,
    TournamentPlayer,
    TournamentRound,
)
