"""The club league: one function per action, one transaction each.

DESIGN "League": clubs, seasons, results and their append-only history live
here; the standings and ratings are ``rules.league``'s pure functions over
the season's confirmed results. Every refusal raises ``LeagueError`` with a
message for the person and changes nothing.

Who may do what:

- any signed-in person: create a club (and become its first admin), join one
  through an invitation;
- an admin of the club: invite, revoke invitations, remove members, promote
  admins, create seasons; confirm, correct or void a result with a reason:
  of a game they played, only with the opponent's agreement; of others'
  games, at once, told to both players, who may dispute it; never a result
  reported before they became an admin. Never anyone's password
  (``battles.services.account_security``);
- a member: report a result against another member, confirm or dispute a
  result reported against them, dispute an admin's change of their game.

The services, one module per topic: ``clubs`` (clubs, members, the audit),
``seasons``, ``results`` (a result from its players), ``admin_changes`` (an
admin's say over a result), ``standings`` (standings, ratings, statistics),
``game_results`` (a finished game counted for a season), ``tournament`` (a
tournament day), ``exports``, ``ratings``, ``peoples``. This package names
the ones the league's pages use, so a page imports ``battles.league.services``
once; the modules import each other by topic.
"""

from battles.league.services.admin_changes import (  # noqa: F401
    admin_confirm,
    admin_correct,
    admin_void,
    approve_proposal,
    disputed_counter,
    disputes_to_settle,
    has_say,
    may_answer_proposal,
    pending_for,
    refuse_proposal,
    waiting_box,
)
from battles.league.services.clubs import (  # noqa: F401
    accept_invitation,
    club_audit,
    create_club,
    invitation_for,
    invitation_token,
    make_invitation,
    membership,
    notices_for,
    promote_admin,
    removal_check,
    remove_member,
    removed_members,
    restore_member,
    revoke_invitation,
)
from battles.league.services.errors import LeagueError  # noqa: F401
from battles.league.services.game_results import (  # noqa: F401
    army_points_destroyed,
    confirm_game_outcome,
    default_outcome,
    differs_from_log,
    game_outcome,
    propose_game_outcome,
    seasons_for_game,
    side_names,
)
from battles.league.services.names import shown_names  # noqa: F401
from battles.league.services.results import (  # noqa: F401
    admin_change_to_dispute,
    closed_message,
    confirm_result,
    dispute_result,
    is_second_game,
    report_result,
    result_history,
    results_visible_to,
    withdraw_result,
)
from battles.league.services.seasons import (  # noqa: F401
    club_members,
    create_season,
    renew_public_link,
    schedule,
    set_public_standings,
)
from battles.league.services.standings import (  # noqa: F401
    _COMPUTED,
    people_statistics,
    player_page,
    season_table,
)
