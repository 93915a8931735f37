"""Black-box tests of the web table's contract (UI.md) that need no browser.

Django's test client reads the HTML; the API (token client) says what the same
user may see and do, and the page must agree with it: the binding paths and
form fields, buttons named by their verbs and carrying a legal action body in
`data-action`, no card the user may not see, Join for visitors of a waiting
game, links in the notification e-mails.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from pablo.celery import app
from tests.api.conftest import Player, create
from tests.factories import UserFactory
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS

pytestmark = pytest.mark.django_db

#: pablo, 2 seats: ann 5H 6H 7H 8H, bob 2S 3S 4S 5S, discard 5D; draw pile 9C, 3D, 4C, ...
DECK = ["5H", "6H", "7H", "8H", "2S", "3S", "4S", "5S", "5D", "9C", "3D", "4C"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PABLO_CARDS = [rank + suit for rank in RANKS for suit in "SHDC"] + ["JK"]
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: UI.md: the verb each button's accessible name starts with, by action.
VERBS = {
    "look": "Look",
    "discard": "Discard",
    "replace": "Replace",
    "peek": "Peek",
    "spy": "Spy",
    "swap": "Swap",
    "skip": "Skip",
    "throw": "Throw",
    "call": "Call",
    "play": "Play",
    "end": "End turn",
}


def verb(action: dict) -> str:
    if action["type"] == "draw":
        return "Take" if action["source"] == "discard" else "Draw"
    return VERBS[action["type"]]


# ------------------------------------------------------------------------------ players


def player(username: str) -> Player:
    """A user with an API token (as tests/api's fixtures make them)."""
    user = UserFactory(username=username, password="secret-pw")
    client = Player()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    client.user = user
    return client


@pytest.fixture
def ann(db) -> Player:
    return player("ann")


@pytest.fixture
def bob(db) -> Player:
    return player("bob")


@pytest.fixture
def cid(db) -> Player:
    return player("cid")


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


# ------------------------------------------------------------------------------ HTML reading


class Page(HTMLParser):
    """Buttons (with their form's data-action), inputs, links of one page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.buttons: list[dict[str, Any]] = []
        self.inputs: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []
        self.forms_inputs: list[dict[str, Any]] = []
        self._forms: list[dict[str, Any]] = []
        self._button: dict[str, Any] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._forms.append(a)
        elif tag == "input":
            self.inputs.append(a)
            if self._forms and a.get("name"):
                self.forms_inputs.append({"form": self._forms[-1], "input": a})
        elif tag == "a":
            self.links.append(a)
        elif tag == "button":
            form = self._forms[-1] if self._forms else {}
            self._button = {"attrs": a, "form": form, "text": ""}
            self.buttons.append(self._button)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._forms:
            self._forms.pop()
        elif tag == "button":
            self._button = None

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button["text"] += data

    def names(self) -> set[str]:
        return {i.get("name", "") for i in self.inputs}

    def actions(self) -> list[tuple[str, dict]]:
        """(accessible name, data-action body) of every button carrying one."""
        found = []
        for b in self.buttons:
            raw = b["attrs"].get("data-action") or b["form"].get("data-action")
            if raw:
                name = b["attrs"].get("aria-label") or " ".join(b["text"].split())
                found.append((name, json.loads(raw)))
        return found

    def button_names(self) -> list[str]:
        return [b["attrs"].get("aria-label") or " ".join(b["text"].split()) for b in self.buttons]


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def page(client: Client, url: str) -> tuple[str, Page]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    return html, Page(html)


def is_legal(body: dict, legal: list[dict]) -> bool:
    """A complete body equal to a legal action, or a filling of a template's choices."""
    for action in legal:
        if "choices" not in action:
            if body == action:
                return True
            continue
        fixed = {k: v for k, v in action.items() if k != "choices"}
        if set(body) != set(fixed) | set(action["choices"]):
            continue
        if any(body[k] != v for k, v in fixed.items()):
            continue
        if all(_chosen(body[k], values) for k, values in action["choices"].items()):
            return True
    return False


def _chosen(value: Any, values: list) -> bool:
    if isinstance(value, list):
        return any(sorted(value) == sorted(v) if isinstance(v, list) else False for v in values)
    return value in values


def reachable_actions(client: Client, url: str, depth: int = 3) -> list[tuple[str, dict]]:
    """Every (name, body) offered on the table or after choosing up to `depth`
    things by the page's own links (no JavaScript)."""
    found: list[tuple[str, dict]] = []
    seen: set[str] = set()
    frontier = [url]
    for _ in range(depth + 1):
        following = []
        for address in frontier:
            if address in seen:
                continue
            seen.add(address)
            _, table = page(client, address)
            found += table.actions()
            for link in table.links:
                if "pick" in link.get("class", "") and link.get("aria-pressed") != "true":
                    href = link["href"]
                    following.append(href if href.startswith("/") else url + href)
        frontier = following
    return found


# ------------------------------------------------------------------------------ pages


def test_the_binding_paths_exist_for_a_visitor(anon):
    client = Client()
    _, lobby = page(client, "/")
    hrefs = {link.get("href") for link in lobby.links}
    assert "/accounts/signup/" in {h.split("?")[0] for h in hrefs}
    assert "/accounts/login/" in {h.split("?")[0] for h in hrefs}
    _, signup = page(client, "/accounts/signup/")
    assert {"username", "password1", "password2"} <= signup.names()
    _, login = page(client, "/accounts/login/")
    assert {"username", "password"} <= login.names()
    assert client.get("/accounts/logout/").status_code != 404
    assert client.get("/play/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_forms_carry_csrf_tokens():
    client = Client(enforce_csrf_checks=True)
    for url in ("/accounts/signup/", "/accounts/login/"):
        _, form = page(client, url)
        assert "csrfmiddlewaretoken" in form.names(), url


def test_an_api_account_logs_in_on_the_web_and_a_web_account_gets_a_token(anon):
    assert (
        anon.post(
            "/api/auth/register/",
            {"username": "apiann", "password": "a long pass phrase"},
            format="json",
        ).status_code
        == 201
    )
    client = Client()
    response = client.post(
        "/accounts/login/", {"username": "apiann", "password": "a long pass phrase"}
    )
    assert response.status_code == 302
    html, _ = page(client, "/")
    assert "apiann" in html
    response = client.post("/accounts/logout/")
    assert response.status_code in (200, 302)
    assert "apiann" not in page(client, "/")[0]

    response = Client().post(
        "/accounts/signup/",
        {
            "username": "webbob",
            "password1": "another pass phrase",
            "password2": "another pass phrase",
        },
    )
    assert response.status_code == 302
    response = anon.post(
        "/api/auth/token/",
        {"username": "webbob", "password": "another pass phrase"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["token"]


# ------------------------------------------------------------------------------ the table


@pytest.fixture
def waiting(ann) -> str:
    return create(ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[DECK])["id"]


@pytest.fixture
def playing(ann, bob, waiting) -> str:
    assert bob.post(f"/api/games/{waiting}/join/").status_code == 200
    ann.ok(waiting, {"type": "look", "positions": [0, 1]})
    bob.ok(waiting, {"type": "look", "positions": [2, 3]})
    return waiting


def test_a_signed_out_visitor_of_a_waiting_game_sees_join(waiting):
    client = Client()
    _, table = page(client, f"/play/{waiting}/")
    joins = [b for b in table.buttons if b["text"].strip().startswith("Join")]
    assert joins, table.button_names()
    # pressing it asks the visitor to log in, and comes back to this table
    response = client.post(joins[0]["form"]["action"])
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert f"/play/{waiting}/" in response["Location"]


def test_a_signed_in_non_player_of_a_waiting_game_sees_join_and_it_joins(cid, waiting):
    client = web(cid)
    _, table = page(client, f"/play/{waiting}/")
    joins = [
        b
        for b in table.buttons
        if (b["attrs"].get("aria-label") or b["text"]).strip().startswith("Join")
    ]
    assert joins, table.button_names()
    # pressing it (the form it submits, without JavaScript) seats cid
    form = joins[0]["form"]
    data = {i["name"]: i.get("value", "") for i in table.inputs if i.get("name")}
    response = client.post(form.get("action") or f"/play/{waiting}/", data)
    assert response.status_code in (302, 303), response.status_code
    assert cid.game(waiting)["you"] == 1


def test_the_creator_of_a_waiting_game_is_offered_no_join(ann, waiting):
    _, table = page(web(ann), f"/play/{waiting}/")
    assert not any(n.startswith("Join") for n in table.button_names())


def test_buttons_start_with_their_verb_and_carry_legal_bodies(ann, playing):
    legal = ann.game(playing)["state"]["legal_actions"]
    # a throw (open out of turn too) is a button once its card is clicked: select a
    # card, then choose the verb (issue 19: no permanent button under every card)
    offered = reachable_actions(web(ann), f"/play/{playing}/", depth=1)
    assert offered
    for name, body in offered:
        assert "expected_version" not in body
        assert is_legal(body, legal), (body, legal)
        assert name.startswith(verb(body)), (name, body)
    # every complete legal action can be done from the page, out-of-turn throws included
    complete = [a for a in legal if "choices" not in a]
    bodies = [body for _, body in offered]
    for action in complete:
        assert action in bodies, action
    # and one of them, sent to the API as is, is taken
    draw = next(body for _, body in offered if body == {"type": "draw", "source": "deck"})
    assert ann.act(playing, draw).status_code == 201


def test_a_player_not_on_turn_gets_only_their_legal_actions(bob, playing):
    legal = bob.game(playing)["state"]["legal_actions"]
    offered = reachable_actions(web(bob), f"/play/{playing}/", depth=1)
    for name, body in offered:
        assert is_legal(body, legal), (body, legal)
        assert name.startswith(verb(body))
    assert not any(body["type"] == "draw" for _, body in offered)
    # and his out-of-turn throws are all there, a click away
    throws = [a for a in legal if a["type"] == "throw"]
    assert throws and all(a in [b for _, b in offered] for a in throws)


def test_the_look_button_appears_once_two_slots_are_chosen(ann, bob, waiting):
    """Without JavaScript: following the page's own links to pick two slots."""
    bob.post(f"/api/games/{waiting}/join/")
    legal = ann.game(waiting)["state"]["legal_actions"]
    client = web(ann)
    url = f"/play/{waiting}/"
    for _ in range(3):
        _, table = page(client, url)
        looks = [(n, b) for n, b in table.actions() if b["type"] == "look"]
        if looks:
            break
        picks = [
            link["href"]
            for link in table.links
            if "pick" in link.get("class", "") and link.get("aria-pressed") != "true"
        ]
        assert picks, "no way to choose a slot without JavaScript"
        href = picks[0]
        url = href if href.startswith("/") else f"/play/{waiting}/{href}"
    assert looks, table.button_names()
    for name, body in looks:
        assert name.startswith("Look")
        assert is_legal(body, legal), (body, legal)
    assert ann.act(waiting, looks[0][1]).status_code == 201


def test_skipbo_buttons_play_and_end_turn_carry_legal_bodies(ann, bob):
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    bob.post(f"/api/games/{game['id']}/join/")
    legal = ann.game(game["id"])["state"]["legal_actions"]
    client = web(ann)
    url = f"/play/{game['id']}/"
    offered = reachable_actions(client, url)  # a card by the page's links, then its pile
    for name, body in offered:
        assert is_legal(body, legal), (body, legal)
        assert name.startswith(verb(body)), (name, body)
    bodies = [body for _, body in offered]
    for action in legal:  # every one of them can be done from the page
        assert action in bodies, action
    # bob, not on turn in Skip-Bo (no throwing), is offered nothing
    _, theirs = page(web(bob), f"/play/{game['id']}/")
    assert theirs.actions() == []


# ------------------------------------------------------------------------------ no leaks


def hidden_codes(state: dict) -> set[str]:
    seen = {state["discard"]["top"], state.get("held")}
    for slots in state["fields"].values():
        seen |= {code for code in slots if code not in ("?", None)}
    return set(PABLO_CARDS) - seen


def assert_no_leak(html: str, hidden: set[str]) -> None:
    # numbers inside SVG drawings are no card codes
    text = re.sub(r'\sd="[^"]*"', " ", html)
    text = re.sub(r'\sviewBox="[^"]*"', " ", text)
    text = re.sub(r'"data:[^"]*"', '""', text)  # an inline icon's URL-encoded SVG
    for code in hidden:
        pattern = rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])"
        match = re.search(pattern, text)
        assert match is None, (code, text[max(0, match.start() - 80) : match.end() + 80])
        rank = code[:-1]
        if rank.isdigit():  # the text alternative, "7 of hearts"
            alt = f"{rank} of {SUITS[code[-1]]}"
            assert alt not in text.lower(), (code, alt)


def test_no_hidden_card_in_a_seats_html(ann, bob, playing):
    for player, seat in ((ann, 0), (bob, 1)):
        state = player.game(playing)["state"]
        html, _ = page(web(player), f"/play/{playing}/")
        hidden = hidden_codes(state)
        assert "5D" not in hidden and len(hidden) > 40
        assert_no_leak(html, hidden)
        # what the API shows this seat, the page shows too (as text alternatives)
        own = [c for c in state["fields"][str(seat)] if c not in ("?", None)]
        assert own
        for code in own:
            assert f"{code[:-1]} of {SUITS[code[-1]]}" in html.lower(), code


def test_no_hidden_card_while_holding_and_for_strangers(ann, cid, playing):
    ann.ok(playing, {"type": "draw", "source": "deck"})  # ann holds 9C, bob must not see it
    state = ann.game(playing)["state"]
    assert state["held"] == "9C"
    html, _ = page(web(ann), f"/play/{playing}/")
    assert_no_leak(html, hidden_codes(state))
    assert "9 of clubs" in html.lower()
    for client, viewer in ((web(cid), cid), (Client(), None)):
        public = (viewer or cid).game(playing)["state"]
        assert public["held"] in (None, "?") or "held" not in public
        html, table = page(client, f"/play/{playing}/")
        assert_no_leak(html, hidden_codes(public) | {"9C"})
        assert table.actions() == []  # read-only to a non-player


def test_a_finished_games_table_links_to_its_replay(ann, bob):
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    bob.post(f"/api/games/{game['id']}/join/")
    for _ in range(5):
        ann.ok(game["id"], {"type": "play", "from": "stock", "pile": 0})
    assert ann.game(game["id"])["status"] == "finished"
    _, table = page(web(ann), f"/play/{game['id']}/")
    assert any(
        link.get("href", "").split("?")[0] == f"/replays/{game['id']}/" for link in table.links
    )


# ------------------------------------------------------------------------------ e-mail links


@pytest.fixture
def eager():
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def test_notification_mails_link_to_the_table_and_the_replay(
    settings, eager, ann, bob, django_capture_on_commit_callbacks
):
    settings.PABLO_SITE_URL = "https://cards.example.org"
    settings.PABLO_FAST_PATH_SECONDS = 0
    for player, address in ((ann, "ann@example.org"), (bob, "bob@example.org")):
        with django_capture_on_commit_callbacks(execute=True):
            response = player.patch(
                "/api/me/notifications/", {"email": address, "email_enabled": True}, format="json"
            )
        assert response.status_code == 200, response.content
        # issue 18: a new address is used once its owner confirms the link mailed to it
        (confirm,) = [m for m in mail.outbox if m.to == [address]]
        link = re.search(r"https://cards\.example\.org(/accounts/email/\S+/)", confirm.body)
        assert link, confirm.body
        assert Client().post(link.group(1)).status_code == 200
    mail.outbox.clear()
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    gid = game["id"]
    with django_capture_on_commit_callbacks(execute=True):
        bob.post(f"/api/games/{gid}/join/")
    turn = [m for m in mail.outbox if m.to == ["ann@example.org"]]
    assert turn, [m.to for m in mail.outbox]
    assert f"https://cards.example.org/play/{gid}/" in turn[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):
            ann.ok(gid, {"type": "play", "from": "stock", "pile": 0})
    over = [m for m in mail.outbox if f"https://cards.example.org/replays/{gid}/" in m.body]
    assert {tuple(m.to) for m in over} == {("ann@example.org",), ("bob@example.org",)}


# ------------------------------------------------------------------------------ icons

#: Misc symbols (☆ ⚑ ⏳ ...), dingbats (✓ ✗), emoji and their variation selector. The
#: four card suits U+2660-2667 are left out: they are in WGL4, so in every standard
#: text font (the event log's sentences write "5♥"); the cards themselves are SVG.
SYMBOL_GLYPHS = re.compile("[\u2300-\u23ff\u2600-\u265f\u2668-\u27bf\ufe0f\U0001f000-\U0001faff]")


def test_no_glyph_needs_an_emoji_or_symbol_font(ann, bob, playing):
    game = create(
        ann, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS, decks=[SKIPBO_QUICK]
    )
    bob.post(f"/api/games/{game['id']}/join/")
    client = web(ann)
    for url in ("/", f"/play/{playing}/", f"/play/{game['id']}/", "/accounts/login/"):
        html = client.get(url).content.decode()
        found = SYMBOL_GLYPHS.findall(html)
        assert not found, (url, found)
    html = Client().get("/").content.decode()
    assert not SYMBOL_GLYPHS.findall(html)


# ------------------------------------------------------------------------------ sending


def form_data(table: Page, body: dict) -> tuple[str, dict]:
    """The action URL and fields of the form whose button carries `body`."""
    for button in table.buttons:
        raw = button["attrs"].get("data-action") or button["form"].get("data-action")
        if raw and json.loads(raw) == body:
            form = button["form"]
            break
    else:
        raise AssertionError(f"no button for {body}")
    fields = {}
    collecting = False
    for parsed in table.forms_inputs:
        if parsed["form"] is form:
            collecting = True
            fields[parsed["input"]["name"]] = parsed["input"].get("value", "")
    assert collecting
    return form["action"], fields


def test_a_double_click_sends_one_action_and_a_refusal_shows_the_apis_sentence(ann, bob, playing):
    client = web(ann)
    _, table = page(client, f"/play/{playing}/")
    version = ann.game(playing)["version"]
    url, fields = form_data(table, {"type": "draw", "source": "deck"})
    stale_url, stale = form_data(table, {"type": "draw", "source": "discard"})
    first = client.post(url, fields)
    second = client.post(url, fields)  # the same form again: one action only
    assert first.status_code in (302, 303) and second.status_code in (302, 303)
    after = ann.game(playing)
    assert after["state"]["held"] == "9C"
    events = ann.get(f"/api/games/{playing}/events/?after={version}").json()["events"]
    assert len({e["type"] for e in events}) == len(events), events  # one draw, no repeat
    # the page's older form now sends a stale version: refused, said in a player's
    # words (the API answers 409 version_conflict)
    api = ann.act(playing, {"type": "draw", "source": "discard", "expected_version": version})
    assert api.status_code == 409
    shown = client.post(stale_url, stale, follow=True)
    assert shown.status_code == 200
    assert "so it was not made" in shown.content.decode()
    assert ann.game(playing)["version"] == after["version"]  # nothing stored


def test_actions_from_the_table_count_against_the_users_action_limit(settings, ann, bob):
    """API.md Throttling: PABLO_THROTTLE_ACTIONS counts a user's actions, however sent."""
    from django.core.cache import caches

    games = []
    for _ in range(3):
        game = create(ann, ruleset="pablo", seats=2, options={"start_seat": 0}, decks=[DECK])
        bob.post(f"/api/games/{game['id']}/join/")
        games.append(game["id"])
    caches["throttle"].clear()
    settings.PABLO_THROTTLE_ACTIONS = "2/min"
    client = web(ann)
    ann.ok(games[0], {"type": "look", "positions": [0, 1]})
    url, fields = form_data(
        Page(client.get(f"/play/{games[1]}/?sel=f0.0,f0.1").content.decode()),
        {"type": "look", "positions": [0, 1]},
    )
    client.post(url, fields)
    assert ann.game(games[1])["state"]["fields"]["0"][:2] == ["5H", "6H"]
    response = ann.act(games[2], {"type": "look", "positions": [0, 1]})
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    # and over the limit the table's form does nothing either
    url, fields = form_data(
        Page(client.get(f"/play/{games[2]}/?sel=f0.0,f0.1").content.decode()),
        {"type": "look", "positions": [0, 1]},
    )
    client.post(url, fields)
    assert ann.game(games[2])["state"]["fields"]["0"] == ["?", "?", "?", "?"]
    caches["throttle"].clear()
