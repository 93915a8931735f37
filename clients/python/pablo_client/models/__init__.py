"""Contains all the data models used in inputs/outputs"""

from .account_event import AccountEvent
from .account_event_data import AccountEventData
from .account_event_type_enum import AccountEventTypeEnum
from .account_feed import AccountFeed
from .action_answer import ActionAnswer
from .analysed_decision import AnalysedDecision
from .analysed_decision_best import AnalysedDecisionBest
from .analysed_decision_taken import AnalysedDecisionTaken
from .analysed_player import AnalysedPlayer
from .analysis import Analysis
from .analysis_progress import AnalysisProgress
from .board_page import BoardPage
from .board_row import BoardRow
from .bot_account import BotAccount
from .call_action_request import CallActionRequest
from .call_action_type_enum import CallActionTypeEnum
from .card_enum import CardEnum
from .channels import Channels
from .channels_request import ChannelsRequest
from .discard_action_request import DiscardActionRequest
from .discard_action_type_enum import DiscardActionTypeEnum
from .draw_action_request import DrawActionRequest
from .draw_action_type_enum import DrawActionTypeEnum
from .end_action_request import EndActionRequest
from .end_action_type_enum import EndActionTypeEnum
from .error import Error
from .event import Event
from .event_data import EventData
from .event_feed import EventFeed
from .fair_draw import FairDraw
from .fairness import Fairness
from .fairness_player_seeds import FairnessPlayerSeeds
from .from_enum import FromEnum
from .game import Game
from .game_create_input_request import GameCreateInputRequest
from .game_create_input_request_options import GameCreateInputRequestOptions
from .game_join_input_request import GameJoinInputRequest
from .game_options import GameOptions
from .game_page import GamePage
from .game_state_type_0 import GameStateType0
from .game_summary import GameSummary
from .game_summary_options import GameSummaryOptions
from .game_summary_result_type_0 import GameSummaryResultType0
from .games_list_status import GamesListStatus
from .history import History
from .history_game import HistoryGame
from .history_player import HistoryPlayer
from .history_ruleset import HistoryRuleset
from .kind_enum import KindEnum
from .kinds import Kinds
from .kinds_request import KindsRequest
from .look_action_request import LookActionRequest
from .look_action_type_enum import LookActionTypeEnum
from .me_history_ruleset import MeHistoryRuleset
from .notification_settings_out import NotificationSettingsOut
from .patched_notification_settings_request import PatchedNotificationSettingsRequest
from .peek_action_request import PeekActionRequest
from .peek_action_type_enum import PeekActionTypeEnum
from .play_action_request import PlayActionRequest
from .play_action_type_enum import PlayActionTypeEnum
from .player import Player
from .player_game import PlayerGame
from .player_game_options import PlayerGameOptions
from .player_game_result_type_0 import PlayerGameResultType0
from .player_page import PlayerPage
from .player_page_ratings import PlayerPageRatings
from .player_rating import PlayerRating
from .push_in_request import PushInRequest
from .push_key import PushKey
from .push_keys_request import PushKeysRequest
from .push_out import PushOut
from .push_webhook import PushWebhook
from .push_webhook_request import PushWebhookRequest
from .quiet_hours import QuietHours
from .quiet_hours_request import QuietHoursRequest
from .register_input_request import RegisterInputRequest
from .register_output import RegisterOutput
from .rematch import Rematch
from .rematch_input_request import RematchInputRequest
from .rematch_options import RematchOptions
from .rematch_state_type_0 import RematchStateType0
from .replace_action_request import ReplaceActionRequest
from .replace_action_type_enum import ReplaceActionTypeEnum
from .replay import Replay
from .replay_fairness import ReplayFairness
from .replay_fairness_player_seeds import ReplayFairnessPlayerSeeds
from .result_enum import ResultEnum
from .ruleset import Ruleset
from .ruleset_options import RulesetOptions
from .ruleset_options_additional_property import RulesetOptionsAdditionalProperty
from .seat import Seat
from .skip_action_request import SkipActionRequest
from .skip_action_type_enum import SkipActionTypeEnum
from .source_enum import SourceEnum
from .spy_action_request import SpyActionRequest
from .spy_action_type_enum import SpyActionTypeEnum
from .status_enum import StatusEnum
from .swap_action_request import SwapActionRequest
from .swap_action_type_enum import SwapActionTypeEnum
from .throw_action_request import ThrowActionRequest
from .throw_action_type_enum import ThrowActionTypeEnum
from .token_input_request import TokenInputRequest
from .token_output import TokenOutput
from .turn import Turn
from .webhook_in_request import WebhookInRequest
from .webhook_out import WebhookOut
from .webhook_secret import WebhookSecret

__all__ = (
    "AccountEvent",
    "AccountEventData",
    "AccountEventTypeEnum",
    "AccountFeed",
    "ActionAnswer",
    "AnalysedDecision",
    "AnalysedDecisionBest",
    "AnalysedDecisionTaken",
    "AnalysedPlayer",
    "Analysis",
    "AnalysisProgress",
    "BoardPage",
    "BoardRow",
    "BotAccount",
    "CallActionRequest",
    "CallActionTypeEnum",
    "CardEnum",
    "Channels",
    "ChannelsRequest",
    "DiscardActionRequest",
    "DiscardActionTypeEnum",
    "DrawActionRequest",
    "DrawActionTypeEnum",
    "EndActionRequest",
    "EndActionTypeEnum",
    "Error",
    "Event",
    "EventData",
    "EventFeed",
    "FairDraw",
    "Fairness",
    "FairnessPlayerSeeds",
    "FromEnum",
    "Game",
    "GameCreateInputRequest",
    "GameCreateInputRequestOptions",
    "GameJoinInputRequest",
    "GameOptions",
    "GamePage",
    "GameStateType0",
    "GameSummary",
    "GameSummaryOptions",
    "GameSummaryResultType0",
    "GamesListStatus",
    "History",
    "HistoryGame",
    "HistoryPlayer",
    "HistoryRuleset",
    "KindEnum",
    "Kinds",
    "KindsRequest",
    "LookActionRequest",
    "LookActionTypeEnum",
    "MeHistoryRuleset",
    "NotificationSettingsOut",
    "PatchedNotificationSettingsRequest",
    "PeekActionRequest",
    "PeekActionTypeEnum",
    "PlayActionRequest",
    "PlayActionTypeEnum",
    "Player",
    "PlayerGame",
    "PlayerGameOptions",
    "PlayerGameResultType0",
    "PlayerPage",
    "PlayerPageRatings",
    "PlayerRating",
    "PushInRequest",
    "PushKey",
    "PushKeysRequest",
    "PushOut",
    "PushWebhook",
    "PushWebhookRequest",
    "QuietHours",
    "QuietHoursRequest",
    "RegisterInputRequest",
    "RegisterOutput",
    "Rematch",
    "RematchInputRequest",
    "RematchOptions",
    "RematchStateType0",
    "ReplaceActionRequest",
    "ReplaceActionTypeEnum",
    "Replay",
    "ReplayFairness",
    "ReplayFairnessPlayerSeeds",
    "ResultEnum",
    "Ruleset",
    "RulesetOptions",
    "RulesetOptionsAdditionalProperty",
    "Seat",
    "SkipActionRequest",
    "SkipActionTypeEnum",
    "SourceEnum",
    "SpyActionRequest",
    "SpyActionTypeEnum",
    "StatusEnum",
    "SwapActionRequest",
    "SwapActionTypeEnum",
    "ThrowActionRequest",
    "ThrowActionTypeEnum",
    "TokenInputRequest",
    "TokenOutput",
    "Turn",
    "WebhookInRequest",
    "WebhookOut",
    "WebhookSecret",
)
