"""Typed shapes of what the server returns (API.md "Shapes", and each method's doc comment).

Results are the decoded JSON objects themselves, typed as `TypedDict`s: no copying, and a field
the server adds later is simply there too. Members that only some cards carry (`avatar`,
`carousel`, `video`, `wallet`) are in the `total=False` part of `Card`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

JSONObject = Dict[str, Any]

#: The six card kinds of the resolver.
CardKind = Literal["banner", "captioned", "classic", "carousel", "video", "wallet"]


# MARK: - Actions


class OpenURLAction(TypedDict):
    type: Literal["openURL"]
    url: str


class DeeplinkAction(TypedDict):
    type: Literal["deeplink"]
    url: str


class RichMediaAction(TypedDict):
    type: Literal["richMedia"]
    code: str


class NoAction(TypedDict):
    type: Literal["none"]


class DismissAction(TypedDict):
    type: Literal["dismiss"]


class MarkReadAction(TypedDict):
    type: Literal["markRead"]


class CustomAction(TypedDict):
    type: Literal["custom"]
    payload: JSONObject


#: What a row tap (or a slide without its own url) asks the host to do.
RowAction = Union[OpenURLAction, DeeplinkAction, RichMediaAction, NoAction]
#: What a button does: `dismiss` and `markRead` the server performs, the others the host does.
ButtonAction = Union[OpenURLAction, DismissAction, MarkReadAction, CustomAction]


# MARK: - Cards


class Button(TypedDict):
    title: str
    action: ButtonAction


#: Why a card fell back to classic: `{"from": kind asked for, "reason": text}`.
Degradation = TypedDict("Degradation", {"from": CardKind, "reason": str})


class Avatar(TypedDict):
    initial: str
    color: str


class CarouselSlide(TypedDict):
    image: str
    title: Optional[str]
    url: Optional[str]
    accessibilityLabel: str
    position: str


class Video(TypedDict):
    url: str
    poster: Optional[str]
    accessibilityLabel: str
    accessibilityIdentifier: str


#: A wallet card's pass (`pass` is a Python keyword, hence the functional form).
Wallet = TypedDict("Wallet", {"pass": str, "image": Optional[str], "accessibilityIdentifier": str})


class _CardKindMembers(TypedDict, total=False):
    avatar: Avatar  # classic
    carousel: List[CarouselSlide]  # carousel
    video: Video  # video
    wallet: Wallet  # wallet


class Card(_CardKindMembers):
    """A resolved message, as `feed.list`, `message.get` and `message.resolve` return it."""

    id: str
    kind: CardKind
    requestedKind: CardKind
    degraded: Optional[Degradation]
    title: Optional[str]
    body: Optional[str]
    image: Optional[str]
    sentAt: Optional[str]  # RFC 3339, UTC
    expiresAt: Optional[str]
    read: bool
    actionPerformed: bool
    pinned: bool
    buttons: List[Button]
    customData: Optional[JSONObject]
    rowAction: RowAction


# MARK: - Results


class Counts(TypedDict):
    """`feed.counts`, over visible (not dismissed, not expired) messages."""

    total: int
    unread: int
    unactioned: int
    pinned: int


class FeedPage(TypedDict):
    """`feed.list`: one page in feed order; `nextCursor` is None on the last page."""

    items: List[Card]
    nextCursor: Optional[str]
    counts: Counts


class TapResult(TypedDict):
    """`message.tap`."""

    message: Card
    action: RowAction
    customData: Optional[JSONObject]


class ButtonTapResult(TypedDict):
    """`button.tap`: `message` is None once the button dismissed it."""

    action: ButtonAction
    performed: bool
    message: Optional[Card]


class SlideTapResult(TypedDict):
    """`slide.tap`."""

    action: RowAction


class DismissResult(TypedDict):
    """`message.dismiss`: `dismissed` is False when it already was."""

    dismissed: bool


class ChangedResult(TypedDict):
    """`feed.markAllRead`."""

    changed: int


class MarkReadResult(TypedDict):
    """`message.markRead`: `unchanged` lists unknown, dismissed and already read ids."""

    changed: int
    unchanged: List[str]


class IngestResult(TypedDict):
    """`message.ingest`: `outcome` is added, updated, dismissed or expired."""

    message: Card
    outcome: Literal["added", "updated", "dismissed", "expired"]


class SyncReport(TypedDict):
    """`feed.sync`: what a sync changed and what is still waiting for the backend."""

    added: int
    updated: int
    removed: int
    expired: int
    pushed: int
    pending: int
    failed: int
    throttled: bool


class ServerName(TypedDict):
    name: str
    version: str


class InitializeResult(TypedDict):
    """`initialize` (as the server answers a host that is not an LSP client)."""

    serverInfo: ServerName
    capabilities: JSONObject  # the same handshake under experimental.inbox
    server: ServerName
    protocolVersion: str
    methods: List[str]
    attributes: JSONObject


class AttributesResult(TypedDict):
    """`config.get` and `config.set`."""

    attributes: JSONObject


# MARK: - Notifications


class FeedChanged(TypedDict, total=False):
    """`feed.changed`: sent after a change has committed."""

    reason: str
    added: List[str]
    updated: List[str]
    removed: List[str]


class LogParams(TypedDict, total=False):
    """`log`: a WARN (or worse) line, e.g. a card that degraded."""

    level: str
    message: str
    data: JSONObject


class SyncProgress(TypedDict, total=False):
    """`sync.progress`, during `feed.sync`."""

    stage: str
    done: int
    total: int
