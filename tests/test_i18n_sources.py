"""Every sentence a person reads is marked for translation (docs/design.md "Languages").

Read from the sources, without running anything:

* a refusal (the rules' ``Malformed`` / ``NotAllowed``, ``games.errors``' classes)
  is raised with a plain string literal as its template, so the project's
  ``makemessages`` collects it and the API's handler can translate it: never
  an f-string, a ``.format`` or a variable;
* in play/, replays/ and tabletop/ Python, a string that reads as English words
  is inside ``gettext`` and friends, a log call, an exception that no page shows
  (``Http404``'s message, a programming error), or a docstring;
* in templates/, the text and the spoken attributes (``aria-label``, ``title``,
  ``placeholder``, ``alt``) are inside ``{% translate %}`` / ``{% blocktranslate %}``.

tests/play/test_i18n.py checks the other half: the catalogues hold every marked
message, translated, and the pages in French and German show no English.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

from games.management.commands.makemessages import REFUSALS

ROOT = Path(settings.BASE_DIR)
CODE = ("games", "pablo", "play", "replays", "tabletop")
PAGES = ("play", "replays", "tabletop")

#: Files left out of the checks below, with why (none now: the ratings pages are marked).
ELSEWHERE: set[str] = set()

TRANSLATING = {
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "_",
}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical"}
#: Two words of letters with a space between: what a sentence has and a code does not.
SENTENCE = re.compile(r"[A-Za-z]{2,}[,;:.!?']* +[A-Za-z]{2,}")
MARKUP = re.compile(r"[<>{}=/_]")
#: Strings of the pages' Python that are not words (CSS classes).
NOT_WORDS = {"back card-", "icon icon-"}


def python_files(folders: tuple[str, ...]) -> list[Path]:
    files = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" not in path.parts:
                files.append(path)
    return files


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --------------------------------------------------------------------------- refusals


def refusals_not_literal(source: str, where: str) -> list[str]:
    bad = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and _name(node.func) in REFUSALS and node.args):
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            bad.append(f"{where}:{node.lineno}: {ast.unparse(node)[:100]}")
    return bad


def test_the_check_finds_a_refusal_written_as_an_f_string():
    source = 'raise NotAllowed(f"It is seat {seat}\'s turn.", "not_your_turn")\n'
    assert refusals_not_literal(source, "x.py")
    assert refusals_not_literal('raise errors.Conflict(TEXT, "c")\n', "x.py")
    assert not refusals_not_literal('raise NotAllowed("It is %(s)s.", "c", s=1)\n', "x.py")


def test_every_refusal_is_raised_with_a_literal_template():
    bad = []
    for path in python_files(CODE):
        bad += refusals_not_literal(path.read_text(), _rel(path))
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------- the pages' Python


def unmarked_sentences(source: str, where: str) -> list[str]:
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = {
        node.body[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value
        if node in docstrings or text in NOT_WORDS:
            continue
        if not SENTENCE.search(text) or MARKUP.search(text):
            continue
        if not _excused(node, parents):
            found.append(f"{where}:{node.lineno}: {text[:80]!r}")
    return found


def _excused(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a translation, a log call, or an exception no page shows."""
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Call):
            name = _name(parent.func)
            if name in TRANSLATING:
                return True
            if name == "ValidationError":  # a form's error: shown beside the field
                return False
            if name in LOGGING and _name(getattr(parent.func, "value", parent.func)) in (
                "log",
                "logger",
                "logging",
            ):
                return True
            if name == "Http404" or (name.endswith("Error") and name != "ValidationError"):
                return True
        if isinstance(parent, ast.Raise | ast.Assert):
            return True
        if isinstance(parent, ast.stmt):
            return False
        parent = parents.get(parent)
    return False


def test_the_check_finds_an_unmarked_sentence_in_a_view():
    view = (
        "def v(request):\n"
        '    messages.error(request, "ruleset: pick one of the rulesets offered.")\n'
        '    messages.info(request, gettext("You cancelled your game."))\n'
        '    log.warning("a bot refused: %s", 1)\n'
        '    raise Http404("No game with this id.")\n'
    )
    assert unmarked_sentences(view, "v.py") == [
        "v.py:2: 'ruleset: pick one of the rulesets offered.'"
    ]
    form = 'BAD = "The body must be an object."\nraise forms.ValidationError("Not a card code.")\n'
    assert len(unmarked_sentences(form, "f.py")) == 2


def test_the_pages_python_marks_every_sentence():
    found = []
    for path in python_files(PAGES):
        if _rel(path) in ELSEWHERE or {"management"} & set(path.parts) or path.name == "apps.py":
            continue  # the command line and the admin's app names are not the site
        found += unmarked_sentences(path.read_text(), _rel(path))
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------- templates

SPOKEN = re.compile(r'\b(?:aria-label|title|placeholder|alt|data-label)\s*=\s*"([^"]*)"')
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
#: Words the same in every language (names), and values that are not words.
SAME = {"Pablo", "Cabo", "Tamalou", "Skip", "Bo", "API", "JSON", "English", "Français", "Deutsch"}
NOT_TEXT = {
    "templates/play/base.html": {"play"},  # {% block body_class %}play{% endblock %}
    "templates/play/token.html": {"api", "docs"},  # the link's text is its path
    "templates/api/reference.html": {"reference"},  # {% block body_class %}
    "templates/api/_reference.html": {"YAML"},  # the schema's format, as a link's text
}


def unmarked_words(source: str) -> set[str]:
    """The words of a template a person reads or hears that no translate tag holds."""
    out, hidden = [], 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            tag = token.contents.split()[0] if token.contents else ""
            if tag in ("blocktranslate", "blocktrans", "comment"):
                hidden += 1
            elif tag in ("endblocktranslate", "endblocktrans", "endcomment"):
                hidden -= 1
            out.append("\x00")
        elif token.token_type == TokenType.TEXT and not hidden:
            out.append(token.contents)
        else:
            out.append("\x00")
    text = re.sub(r"<!--.*?-->", "", "".join(out), flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)
    spoken = " ".join(SPOKEN.findall(text))
    text = re.sub(r"<[^>]*>", " ", text)
    return set(WORD.findall(text + " " + spoken)) - SAME


def test_the_check_finds_unmarked_template_text():
    page = (
        '{% load i18n %}<h1>{% translate "Lobby" %}</h1><p title="Your turn">Hello '
        "{{ name }}</p>{% blocktranslate %}Hi {{ name }}{% endblocktranslate %}"
        '<button aria-label="{% translate "Draw" %}">'
    )
    assert unmarked_words(page) == {"Your", "turn", "Hello"}


@pytest.mark.parametrize(
    "template",
    sorted(_rel(p) for p in (ROOT / "templates").rglob("*.html")),
)
def test_every_template_marks_its_text(template):
    left = unmarked_words((ROOT / template).read_text()) - NOT_TEXT.get(template, set())
    assert not left, f"{template}: words outside translate tags: {sorted(left)}"


# --------------------------------------------------------------------------- scripts

#: A JavaScript string literal ('…', "…" or `…`), and its comments.
JS_LITERAL = re.compile(r"""(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""", re.S)
JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.S)
#: Just before a literal: inside ``gettext(`` / ``ngettext("one", `` and friends.
JS_MARKED = re.compile(r"\b(?:n?p?gettext)\(\s*(?:[\"'][^\"']*[\"']\s*,\s*)*$")
#: A CSS selector or media query, a class list, a directive, a thrown programming error.
JS_NOT_WORDS = re.compile(r"^[#.(]|[\[\]]|^use strict$|^notice error$")
JS_INTERNAL = re.compile(r"new Error\(\s*$")
SCRIPTS = sorted(
    [_rel(p) for folder in PAGES for p in (ROOT / folder / "static").rglob("*.js")]
    + [_rel(p) for p in (ROOT / "templates").rglob("*.js")]
)


def unmarked_js(source: str, name: str) -> list[str]:
    """The string literals of a script that read as English words outside ``gettext``."""
    source = JS_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    found = []
    for m in JS_LITERAL.finditer(source):
        text, before = m.group("s"), source[max(0, m.start() - 200) : m.start()]
        if not SENTENCE.search(text) or MARKUP.search(text) or JS_NOT_WORDS.search(text):
            continue
        if JS_MARKED.search(before) or JS_INTERNAL.search(before):
            continue
        found.append(f"{name}:{source.count(chr(10), 0, m.start()) + 1}: {text!r}")
    return found


def test_the_check_finds_an_unmarked_sentence_in_a_script():
    script = (
        "'use strict'; // a comment's words: not said\n"
        'say(gettext("The server could not be reached."));\n'
        'el.textContent = "Copy the link";\n'
        "n = ngettext('%s day', '%s days', d) + ' left in total';\n"
        'document.querySelector("#table .actions button"); throw new Error("no worker at all");\n'
        'say("The table changed; choose again.");\n'
    )
    assert unmarked_js(script, "s.js") == [
        "s.js:3: 'Copy the link'",
        "s.js:4: ' left in total'",
        "s.js:6: 'The table changed; choose again.'",
    ]


def test_every_script_marks_its_sentences():
    """Issue 29: "a test fails on a user-facing string not marked for translation" --
    the pages' scripts too (play.js, lobby.js, push.js, the service worker...)."""
    assert SCRIPTS, "no scripts found"
    found = []
    for name in SCRIPTS:
        found += unmarked_js((ROOT / name).read_text(), name)
    assert not found, "\n".join(found)
