"""/api/docs/: the API's reference page, built from the OpenAPI schema that
/api/schema/ serves (games/api/reference.py)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from games.api import reference as reference_module
from games.api.reference import Reference, markdown
from tests.play.test_i18n import SHARED, catalogue_words, said

pytestmark = pytest.mark.django_db


def schema() -> dict[str, Any]:
    answer = Client().get("/api/schema/?format=json")
    assert answer.status_code == 200
    return answer.json()


def operations(spec: dict[str, Any]):
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            yield path, method, op


def body_fields(spec: dict[str, Any], holder: dict[str, Any]) -> set[str]:
    """The top-level field names of a request body or an answer (each shape of a oneOf)."""
    components = spec["components"]["schemas"]

    def resolve(s):
        while "$ref" in s:
            s = components[s["$ref"].rsplit("/", 1)[-1]]
        return s

    names: set[str] = set()
    for content in holder.get("content", {}).values():
        top = resolve(content["schema"])
        for shape in top.get("oneOf", [top]):
            shape = resolve(shape)
            if shape.get("type") == "array":
                shape = resolve(shape.get("items", {}))
            names |= set(shape.get("properties", {}))
    return names


def test_every_operation_of_the_schema_is_on_the_page():
    spec = schema()
    page = Client().get("/api/docs/").content.decode()
    found = list(operations(spec))
    assert len(found) >= 30
    for path, method, op in found:
        anchor = f'id="op-{op["operationId"]}"'
        assert anchor in page, (method, path)
        assert f'href="#op-{op["operationId"]}"' in page  # in the contents
        start = page.index(anchor)
        end = page.find('<section class="operation"', start)
        section = page[start : end if end > 0 else len(page)]
        heading = (
            f'<code class="method">{method.upper()}</code> '
            f'<code class="path">{html.escape(path)}</code>'
        )
        assert heading in section, (method, path)
        assert html.escape(op["summary"].split("`")[0]) in section
        for parameter in op.get("parameters", []):
            assert f"<code>{parameter['name']}</code>" in section, (path, parameter["name"])
        for field in body_fields(spec, op.get("requestBody", {})):
            assert f"<code>{field}</code>" in section, (method, path, field)
        for status, answer in op["responses"].items():
            assert f"<code>{status}</code>" in section, (method, path, status)
            where = section
            for content in answer.get("content", {}).values():
                common = content["schema"].get("$ref", "").rsplit("/", 1)[-1]
                if f'href="#shape-{common}"' in section:  # listed once, under "Common shapes"
                    start = page.index(f'id="shape-{common}"')
                    where = page[start : page.index("</section>", start)]
            for field in body_fields(spec, answer):
                assert f"<code>{field}</code>" in where, (method, path, status, field)
        # authentication: needed exactly where the schema names a scheme
        assert ('href="#auth"><code>tokenAuth</code>' in section) == bool(op.get("security"))


def test_a_schema_that_contains_itself_is_listed_once():
    node = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
            "other": {"$ref": "#/components/schemas/Other"},
        },
    }
    other = {"type": "object", "properties": {"back": {"$ref": "#/components/schemas/Node"}}}
    answer = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}
    spec = {
        "paths": {"/x/": {"get": {"operationId": "x", "responses": {"200": answer}}}},
        "components": {"schemas": {"Node": node, "Other": other}},
    }
    op = Reference(spec).build()["tags"][0]["operations"][0]
    rows = op["responses"][0]["body"]["shapes"][0]["rows"]
    assert [(r["name"], r["type"], r["recursive"]) for r in rows] == [
        ("name", "string", False),
        ("children", "Node[]", True),
        ("other", "Other", False),
        ("other.back", "Node", True),
    ]
    assert rows[0]["required"] and not rows[1]["required"]
    assert op["auth"] == ""  # no security: no credentials needed


def test_the_error_body_is_listed_once():
    page = Client().get("/api/docs/").content.decode()
    assert page.count('id="shape-Error"') == 1
    assert page.count('href="#shape-Error"') >= 30


def test_the_schema_texts_are_escaped_and_their_markdown_kept():
    text = (
        "Use `a<b>` here.\nSame <script>x</script> paragraph.\n\n"
        "| type | data |\n|---|---|\n| `x` | y |\n\n* `won` - won"
    )
    out = str(markdown(text))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<p>Use <code>a&lt;b&gt;</code> here. Same" in out
    assert '<th scope="col">type</th>' in out and "<td><code>x</code></td>" in out
    assert "<ul><li><code>won</code> - won</li></ul>" in out
    assert str(markdown("(``games.tokens``)")) == "<p>(<code>games.tokens</code>)</p>"


def test_the_schema_is_made_once_and_each_language_rendered_once():
    reference_module.reference.cache_clear()
    reference_module.reference_html.cache_clear()
    real = SchemaGenerator.get_schema
    with mock.patch.object(SchemaGenerator, "get_schema", autospec=True, side_effect=real) as made:
        pages = {
            lang: Client(HTTP_ACCEPT_LANGUAGE=lang).get("/api/docs/").content
            for lang in ("en", "fr", "de", "en", "fr")
        }
    assert made.call_count == 1
    assert reference_module.reference_html.cache_info().currsize == 3
    assert pages["en"] != pages["fr"] != pages["de"]


class _WithoutEnglish(HTMLParser):
    """The page without what stays English on purpose: the schema's texts
    (``lang="en"``) and code."""

    VOID = {"br", "meta", "link", "input", "img", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if self.skipping:
            self.skipping += tag not in self.VOID
        elif tag == "code" or (tag != "html" and ("lang", "en") in attrs):
            self.skipping = 1
        else:
            self.out.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        if self.skipping:
            self.skipping -= 1
        else:
            self.out.append(f"</{tag}>")

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(data)

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")


def own_words(page: bytes) -> set[str]:
    parser = _WithoutEnglish()
    parser.feed(page.decode())
    return said("".join(parser.out))


def test_the_pages_own_words_are_in_french_and_german():
    english = own_words(Client(HTTP_ACCEPT_LANGUAGE="en").get("/api/docs/").content)
    assert {"Parameters", "Responses", "Authentication", "required"} <= english
    for lang in ("fr", "de"):
        answer = Client(HTTP_ACCEPT_LANGUAGE=lang).get("/api/docs/")
        assert answer.headers["Content-Language"] == lang
        left = (own_words(answer.content) & english) - catalogue_words(lang) - SHARED - {"YAML"}
        assert left == set(), (lang, sorted(left))


def test_every_link_of_the_page_has_its_target_and_ids_are_unique():
    page = Client().get("/api/docs/").content.decode()
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    assert set(re.findall(r'href="#([^"]+)"', page)) <= set(ids)
