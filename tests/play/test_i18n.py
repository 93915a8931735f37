"""English, French and German (docs/table.md "Languages").

The catalogues: every message marked in the code is in locale/ (``makemessages``
finds nothing new), translated in French and German (none missing, none fuzzy),
and the committed ``.mo`` files are the ``.po`` files compiled. The pages: every
page a player meets, rendered in French and in German, shows no English word the
catalogues do not also use in that language (a string not marked for
translation). The switch in the header, the account's language, the API's
``detail`` from ``Accept-Language`` and the mails in the account's language.
"""

from __future__ import annotations

import gettext
import html
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings

from games.models import GameAnalysis
from games.notifications.mail import YOUR_TURN, email_text
from games.selectors import accounts as account_selectors
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import analysis as analysis_services
from games.services import games as game_services
from games.turns.bots import play_stored_game
from tests.play.test_browser import PLANS
from tests.play.test_reveal import play_until_round_ends

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("fr", "de")
DOMAINS = ("django", "djangojs")
CATALOGUES = [LOCALE / lang / "LC_MESSAGES" / f"{d}.po" for lang in LANGUAGES for d in DOMAINS]
#: The folders whose strings people meet (scripts/messages.sh skips the others).
SOURCES = ("games", "pablo", "play", "replays", "tabletop", "templates")


def _tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} (GNU gettext) is needed: apt-get install gettext"
    return path


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, check=False)


# --------------------------------------------------------------------------- catalogues


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_message_is_translated_and_none_is_fuzzy(po):
    checked = _run(_tool("msgfmt"), "--check", "-o", "/dev/null", str(po))
    assert checked.returncode == 0, checked.stderr
    for flag in ("--untranslated", "--only-fuzzy"):
        left = _run(_tool("msgattrib"), flag, "--no-obsolete", str(po)).stdout
        assert not re.search(r'^msgid "(?!")', left, re.M), f"{po}: {flag[2:]}:\n{left}"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_the_committed_mo_files_are_the_po_files_compiled(po, tmp_path):
    fresh = tmp_path / "fresh.mo"
    assert _run(_tool("msgfmt"), "-o", str(fresh), str(po)).returncode == 0
    with fresh.open("rb") as a, po.with_suffix(".mo").open("rb") as b:
        assert gettext.GNUTranslations(a)._catalog == gettext.GNUTranslations(b)._catalog, (
            f"{po.with_suffix('.mo')} is stale: run scripts/messages.sh"
        )


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_string_is_in_the_catalogues(domain, tmp_path, monkeypatch):
    """makemessages over the code finds no message the French and German catalogues lack.

    It runs over links to the code's folders, so that what it writes goes to
    ``tmp_path``, never into locale/."""
    src = tmp_path / "src"
    src.mkdir()
    for folder in SOURCES:
        (src / folder).symlink_to(Path(settings.BASE_DIR) / folder)
    monkeypatch.chdir(src)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command(
            "makemessages",
            locale=list(LANGUAGES),
            domain=domain,
            symlinks=True,
            no_location=True,
            verbosity=0,
        )
    for lang in LANGUAGES:
        found = tmp_path / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
        ours = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
        # msgcmp DEF REF: every message of REF (the code's) has a translation in DEF (ours)
        compared = _run(_tool("msgcmp"), str(ours), str(found))
        assert compared.returncode == 0, compared.stderr


# --------------------------------------------------------------------------- pages

pytestmark = pytest.mark.django_db

TAGS = re.compile(r"<(script|style)\b.*?</\1>|<svg\b.*?</svg>", re.S)
ATTRS = re.compile(r'\b(?:aria-label|title|placeholder|alt|data-label)="([^"]*)"')
WORDS = re.compile(r"(?<!\w)[A-Za-zÀ-ÿ]{3,}(?!\w)")
#: Words that are the same in every language here (names, acronyms, units), and the
#: languages' own names in the header's switch.
SHARED = {"API", "JSON", "CSRF", "REST", "UTC", "min", "Pablo", "Cabo", "Tamalou", "Skip"}
SHARED |= {"English", "Français", "Deutsch", "cabo"}
SHARED |= {"api", "docs"}  # the API's address, /api/docs/, as a link's text


def said(page: str) -> set[str]:
    """The words a person reads or hears on ``page``: text and spoken attributes."""
    page = TAGS.sub(" ", page)
    spoken = " ".join(ATTRS.findall(page))
    text = re.sub(r"<[^>]+>", " ", page)
    return set(WORDS.findall(html.unescape(text + " " + spoken)))


#: What a translation keeps in English: the field a refusal names ("options.seats: ..."),
#: the values it quotes ('"deck" or "discard"') and the placeholders. No words of the language.
API_NAMES = re.compile(r"^[\w.\[\]%()-]+: |\"[^\"]*\"|(?<!\w)'[^' ]*'(?!\w)|%\(\w+\)[sd]")


def catalogue_words(lang: str) -> set[str]:
    words: set[str] = set()
    for domain in DOMAINS:
        with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
            for text in gettext.GNUTranslations(f)._catalog.values():
                words |= set(WORDS.findall(API_NAMES.sub(" ", text)))
    return words


def user(name):
    return account_services.user_register(username=name, password="secret-pw-1")[0]


def client_for(u, lang: str) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(u)
    return c


def untranslated(pages: dict[str, Client], paths: list[str], names: set[str]) -> dict:
    """Per path and language: the words of the English page left on the translated one."""
    english = {p: said(pages["en"].get(p).content.decode()) for p in paths}
    leaks = {}
    for lang in LANGUAGES:
        allowed = catalogue_words(lang) | SHARED | names
        for p in paths:
            response = pages[lang].get(p)
            assert response.status_code == 200, p
            assert response.headers["Content-Language"] == lang
            left = (said(response.content.decode()) & english[p]) - allowed
            if left:
                leaks[(lang, p)] = sorted(left)
    return leaks


def test_the_check_finds_an_english_word_left_on_a_french_page():
    page = '<p>Tour de ann</p><button aria-label="Draw from the deck">Piocher</button>'
    assert {"Draw", "from", "the", "deck"} <= said(page) - catalogue_words("fr")


def test_the_pages_of_a_cabo_and_a_skipbo_game_are_all_in_french_and_german():
    plan = PLANS["cabo"]
    users = [user(n) for n in ("ann", "ben", "cara")]
    names = {"ann", "ben", "cara"}
    cabo = game_services.game_create(
        user=users[0], ruleset="cabo", seats=3, options={"start_seat": 0}, decks=plan["decks"]
    )
    for u in users[1:]:
        game_services.game_join(game_id=cabo.id, user=u)
    skipbo = game_services.game_create(user=users[0], ruleset="skipbo", seats=2)
    game_services.game_join(game_id=skipbo.id, user=users[1])
    waiting = game_services.game_create(user=users[0], ruleset="tamalou", seats=3, private=True)
    pages = {lang: client_for(users[0], lang) for lang in ("en", *LANGUAGES)}
    paths = [
        "/",
        "/history/",
        "/accounts/token/",
        f"/play/{cabo.id}/",  # the looks: choose two cards
        f"/play/{cabo.id}/?sel=f0.0",
        f"/play/{skipbo.id}/",
        f"/play/{waiting.id}/",
    ]
    assert untranslated(pages, paths, names) == {}
    # mid-round, then the reveal
    play_until_round_ends(cabo, users, plan)
    paths = [f"/play/{cabo.id}/", f"/play/{skipbo.id}/?sel=st"]
    assert untranslated(pages, paths, names) == {}


def test_the_signed_out_pages_are_in_french_and_german():
    pages = {lang: Client(HTTP_ACCEPT_LANGUAGE=lang) for lang in ("en", *LANGUAGES)}
    paths = ["/", "/accounts/signup/", "/accounts/login/", "/replays/"]
    assert untranslated(pages, paths, set()) == {}


def test_the_viewer_and_its_analysis_are_in_french_and_german(settings):
    settings.PABLO_ANALYSIS_ITERATIONS = 4
    game = play_stored_game("cabo", ["basic", "basic"], {}, rng=random.Random(3))
    viewer = user("vera")
    row = analysis_services.analysis_request(game=game, user=viewer)
    analysis_services.analysis_run(analysis_id=row.pk)
    assert GameAnalysis.objects.get(pk=row.pk).status == "done"
    names = set(
        get_user_model().objects.filter(seats__game=game).values_list("username", flat=True)
    )
    pages = {lang: client_for(viewer, lang) for lang in ("en", *LANGUAGES)}
    replay = f"/replays/{game.id}/"
    last = game_selectors.game_get(game.id).version
    paths = [
        "/replays/",
        replay,
        f"{replay}?step=5",
        f"{replay}?step=5&as=1",
        f"{replay}?step={last}",
    ]
    assert untranslated(pages, paths, names | {"vera", "basic", "bot"}) == {}
    # the list of marked steps: "Step 3: mistake by …", with French's space before the colon
    marks = {lang: pages[lang].get(replay).content.decode().split('class="analysis-marks"')
             for lang in ("en", "fr")}  # fmt: skip
    assert all(len(parts) == 2 for parts in marks.values()), "no marked step to read"
    assert "</a>: <span" in marks["en"][1] and "</a>\u202f: <span" in marks["fr"][1]


# --------------------------------------------------------------------------- the switch


def test_the_switch_sets_the_cookie_and_the_accounts_language():
    ann = user("ann")
    c = client_for(ann, "en")
    r = c.post("/accounts/language/", {"language": "de"}, HTTP_REFERER="http://testserver/history/")
    assert r.status_code == 302 and r["Location"] == "http://testserver/history/"
    assert r.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert account_selectors.account_language(user=ann) == "de"
    assert '<html lang="de">' in c.get("/").content.decode()
    # another browser, English by its header and without the cookie: the account's choice wins
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.force_login(ann)
    page = other.get("/").content.decode()
    assert '<html lang="de">' in page and "Partie starten" in page
    # a visitor's choice is the cookie's
    visitor = Client(HTTP_ACCEPT_LANGUAGE="de")
    visitor.post("/accounts/language/", {"language": "fr"})
    assert "Inscription" in visitor.get("/").content.decode()
    # an unknown language changes nothing
    r = c.post("/accounts/language/", {"language": "xx"})
    assert r.status_code == 302 and account_selectors.account_language(user=ann) == "de"


def test_a_switch_on_one_device_is_the_next_page_on_another():
    """The account's language is not kept per session: a device that already showed a
    page in English shows the next one in the language chosen on another device."""
    ann = user("ann")
    phone, laptop = client_for(ann, "en"), client_for(ann, "en")
    assert '<html lang="en">' in phone.get("/").content.decode()
    assert '<html lang="en">' in laptop.get("/").content.decode()
    laptop.post("/accounts/language/", {"language": "fr"})
    assert '<html lang="fr">' in phone.get("/").content.decode()
    phone.post("/accounts/language/", {"language": "de"})
    assert '<html lang="de">' in laptop.get("/history/").content.decode()


def test_sign_up_keeps_the_language_it_was_made_in():
    c = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    page = c.get("/accounts/signup/").content.decode()
    assert "Inscription" in page and '<html lang="fr">' in page
    c.post(
        "/accounts/signup/",
        {"username": "zoe", "password1": "secret-pw-1", "password2": "secret-pw-1"},
    )
    zoe = get_user_model().objects.get(username="zoe")
    assert account_selectors.account_language(user=zoe) == "fr"


def test_the_api_detail_follows_accept_language_not_the_cookie():
    c = Client(HTTP_ACCEPT_LANGUAGE="de")
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    r = c.post("/api/auth/token/", {}, content_type="application/json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] and "Dieses Feld ist zwingend erforderlich." in body["detail"]
    assert r.headers["Content-Language"] == "de"
    english = Client().post("/api/auth/token/", {}, content_type="application/json").json()
    assert english["code"] == body["code"] and "This field is required." in english["detail"]


def test_mails_speak_the_accounts_language():
    body = {"game_id": "g1", "ruleset": "skipbo", "seat": 0, "event": YOUR_TURN}
    body["deadline"] = "2026-11-27T20:00:00Z"
    assert email_text(body, "fr")[0] == "À toi de jouer au Skip-Bo"
    assert email_text(body, "de")[0] == "Du bist am Zug: Skip-Bo"
    assert email_text(body)[0] == "Your turn in Skip-Bo"
    assert not mail.outbox
