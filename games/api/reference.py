"""The API's reference page, ``/api/docs/``: the OpenAPI schema drf-spectacular
generates (the one ``/api/schema/`` serves), as one server-rendered page of the site.

Swagger UI was here before: a script-built page with serious axe-core violations
and in English only. This page is plain HTML in the site's frame (header, navigation,
footer), readable without JavaScript, its own words translated; the schema's texts
(summaries, descriptions) stay in English, like the codes and field names
(docs/api.md "The reference page").

``reference()`` walks the schema once per process (about 0.1-0.2 s) into plain
data: operations grouped by tag, each with its parameters, its request body's and
its answers' fields flattened into rows (``players[].seat``), ``$ref`` resolved, a
schema that refers to itself shown once and then named, not followed.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from drf_spectacular.generators import SchemaGenerator

METHODS = ("get", "post", "put", "patch", "delete")
#: How deep nested objects are unfolded; deeper ones are named, not listed.
MAX_DEPTH = 6
#: An answer's shape used this often is listed once at the top ("Common shapes").
COMMON = 10


def docs_page(request: HttpRequest) -> HttpResponse:
    content = reference_html(translation.get_language() or settings.LANGUAGE_CODE)
    return render(request, "api/reference.html", {"content": content, "nav": "api"})


@cache
def reference_html(language: str) -> SafeString:
    """The page's content in one language, rendered once per process: about 0.15 s of
    template work that nothing about the reader changes. ``language`` is one of
    ``settings.LANGUAGES`` (LocaleMiddleware's choice), so the cache holds three."""
    with translation.override(language):
        return mark_safe(render_to_string("api/_reference.html", {"ref": reference()}))


@cache
def reference() -> dict[str, Any]:
    """The page's data, built once per process: the schema does not change while it runs."""
    # English whatever the request's language: the schema's own texts are English,
    # and the few lazy ones (DRF's) must not come out in another language beside them.
    with translation.override("en"):
        generator = SchemaGenerator()  # type: ignore[no-untyped-call]
        schema = _plain(generator.get_schema(request=None, public=True))  # type: ignore[no-untyped-call]
    return Reference(schema).build()


def _plain(value: Any) -> Any:
    """The schema with its lazy translations turned into strings."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Promise):
        return str(value)
    return value


class Reference:
    """One schema (a dict, as /api/schema/?format=json gives it) as the page's data."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.components = schema.get("components", {}).get("schemas", {})
        self.schemes = schema.get("components", {}).get("securitySchemes", {})
        self.headers: dict[str, str] = {}
        # A shape most answers share (the error body): listed once, named elsewhere.
        uses: dict[str, int] = {}
        for methods in schema["paths"].values():
            for op in methods.values():
                for answer in op.get("responses", {}).values() if isinstance(op, dict) else []:
                    for content in answer.get("content", {}).values():
                        name = self.ref_name(content.get("schema", {}))
                        uses[name] = uses.get(name, 0) + 1
        self.common = {n for n, count in uses.items() if n and count >= COMMON}

    def build(self) -> dict[str, Any]:
        tags: dict[str, list[dict[str, Any]]] = {}
        for path, methods in self.schema["paths"].items():
            for method in METHODS:
                if method in methods:
                    operation = self.operation(path, method, methods[method])
                    for tag in methods[method].get("tags") or ["other"]:
                        tags.setdefault(tag, []).append(operation)
        info = self.schema.get("info", {})
        return {
            "title": info.get("title", ""),
            "version": info.get("version", ""),
            "description": markdown(info.get("description", "")),
            "tags": [{"name": name, "operations": ops} for name, ops in sorted(tags.items())],
            "schemes": [
                {
                    "id": key,
                    "where": scheme.get("in", ""),
                    "name": scheme.get("name", ""),
                    "description": markdown(scheme.get("description", "")),
                }
                for key, scheme in sorted(self.schemes.items())
            ],
            "headers": [
                {"name": name, "description": markdown(text)}
                for name, text in sorted(self.headers.items())
            ],
            "common": [
                {"name": name, "shapes": self.shapes({"$ref": f"#/components/schemas/{name}"})}
                for name in sorted(self.common)
            ],
        }

    def operation(self, path: str, method: str, op: dict[str, Any]) -> dict[str, Any]:
        security = op.get("security") or []
        schemes = [key for item in security for key in item]
        body = op.get("requestBody")
        return {
            "id": op.get("operationId") or f"{method}-{path}",
            "anchor": "op-" + re.sub(r"[^A-Za-z0-9_-]+", "-", op.get("operationId") or path),
            "method": method.upper(),
            "path": path,
            "summary": inline(op.get("summary", "")),
            "description": markdown(op.get("description", "")),
            # ``{}`` among the alternatives: the call works without credentials too
            "auth": "optional" if schemes and {} in security else ("needed" if schemes else ""),
            "schemes": [s for s in dict.fromkeys(schemes) if s in self.schemes],
            "parameters": [self.parameter(p) for p in op.get("parameters", [])],
            "body": self.content(body) if body else None,
            "body_required": bool(body and body.get("required")),
            "responses": [
                {"status": status, **self.response(answer)}
                for status, answer in sorted(op.get("responses", {}).items())
            ],
        }

    def parameter(self, parameter: dict[str, Any]) -> dict[str, Any]:
        parameter = self.resolve(parameter)
        schema = parameter.get("schema", {})
        return {
            "name": parameter.get("name", ""),
            "where": parameter.get("in", ""),
            "type": self.type_of(schema),
            "required": bool(parameter.get("required")),
            "description": markdown(parameter.get("description", "")),
            **self.constraints(self.resolve(schema)),
        }

    def response(self, answer: dict[str, Any]) -> dict[str, Any]:
        answer = self.resolve(answer)
        headers = []
        for name, header in answer.get("headers", {}).items():
            self.headers.setdefault(name, header.get("description", ""))
            headers.append({"name": name, "required": bool(header.get("required"))})
        return {
            "description": markdown(answer.get("description", "")),
            "headers": headers,
            "body": self.content(answer) if answer.get("content") else None,
        }

    def content(self, holder: dict[str, Any]) -> dict[str, Any]:
        """A request body's or an answer's content: its media type and its shapes."""
        media, content = next(iter(holder["content"].items()))
        schema = content.get("schema", {})
        common = self.ref_name(schema) if self.ref_name(schema) in self.common else ""
        return {
            "media": media,
            "type": self.type_of(schema),
            "common": common,
            "shapes": [] if common else self.shapes(schema),
        }

    def shapes(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        """The fields of a body: one shape, or one per alternative of a ``oneOf``."""
        name = self.ref_name(schema)
        resolved = self.resolve(schema)
        seen = (name,) if name else ()
        alternatives = resolved.get("oneOf") or resolved.get("anyOf")
        if alternatives:
            discriminator = resolved.get("discriminator", {})
            mapping = {v: k for k, v in discriminator.get("mapping", {}).items()}
            key = discriminator.get("propertyName", "")
            return [
                {
                    "title": self.ref_name(alt) or self.type_of(alt),
                    "when": (key, mapping[alt["$ref"]]) if alt.get("$ref") in mapping else None,
                    "rows": self.rows(alt, "", seen),
                    "description": markdown(self.resolve(alt).get("description", "")),
                }
                for alt in alternatives
            ]
        if resolved.get("type") == "array":  # the type line says "[]": the rows are an element's
            return self.shapes(resolved.get("items", {}))
        rows = self.rows(schema, "", ())
        return [{"title": "", "when": None, "rows": rows, "description": ""}] if rows else []

    def rows(
        self, schema: dict[str, Any], prefix: str, seen: tuple[str, ...]
    ) -> list[dict[str, Any]]:
        """The fields under ``schema`` (an object, an array of them, a map), flattened."""
        name = self.ref_name(schema)
        if name in seen and prefix:
            return []  # a schema inside itself: its row names it, once is enough
        if name:
            seen = (*seen, name)
        schema = self.resolve(schema)
        if len(prefix.split(".")) > MAX_DEPTH:
            return []
        if schema.get("type") == "array" and "items" in schema:
            return self.rows(schema["items"], prefix + "[]", seen)
        found = []
        required = set(schema.get("required", []))
        for field, sub in schema.get("properties", {}).items():
            path = f"{prefix}.{field}" if prefix and not prefix.endswith(".") else prefix + field
            target = self.resolve(sub)
            found.append(
                {
                    "name": path,
                    "depth": path.count(".") + path.count("[]"),
                    "type": self.type_of(sub),
                    "required": field in required,
                    "description": markdown(self.describe(sub)),
                    **self.constraints(target),
                    "recursive": self.inner_name(sub) in seen,
                }
            )
            found += self.rows(self.single(sub), path, seen)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra and prefix:
            found += self.rows(extra, prefix + ".*", seen)
        return found

    # ------------------------------------------------------------------ schema helpers

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        for _ in range(20):  # a $ref to a $ref ... never forever
            ref = schema.get("$ref") if isinstance(schema, dict) else None
            if not ref:
                break
            schema = self.components.get(ref.rsplit("/", 1)[-1], {})
        return schema

    @staticmethod
    def ref_name(schema: dict[str, Any]) -> str:
        ref = schema.get("$ref", "") if isinstance(schema, dict) else ""
        return ref.rsplit("/", 1)[-1] if ref else ""

    def inner_name(self, schema: dict[str, Any]) -> str:
        """The named schema a field holds, through arrays: ``Node`` for ``Node[]``."""
        for _ in range(MAX_DEPTH):
            schema = self.single(schema)
            resolved = self.resolve(schema)
            if resolved.get("type") != "array":
                break
            schema = resolved.get("items", {})
        return self.ref_name(schema)

    @staticmethod
    def single(schema: dict[str, Any]) -> dict[str, Any]:
        """drf-spectacular's ``allOf: [{$ref}]`` wrapper (a reference with its own
        description or ``nullable``) as the reference itself."""
        parts = schema.get("allOf")
        return parts[0] if parts and len(parts) == 1 else schema

    def describe(self, schema: dict[str, Any]) -> str:
        text = str(
            schema.get("description") or self.resolve(self.single(schema)).get("description", "")
        )
        values = self.resolve(self.single(schema)).get("enum")
        if values and not all(f"`{v}`" in text for v in values if v not in ("", None)):
            listed = ", ".join(f"`{v}`" for v in values if v not in ("", None))
            text = f"{text}\n\n{listed}" if text else listed
        return text

    def type_of(self, schema: dict[str, Any], depth: int = 0) -> str:
        """A short, language-free notation: ``string[]``, ``integer | null``,
        ``{string: Channels}``, ``Game`` (a named object)."""
        if depth > MAX_DEPTH:
            return "…"
        nullable = bool(schema.get("nullable"))
        schema = self.single(schema)
        name = self.ref_name(schema)
        resolved = self.resolve(schema)
        alternatives = resolved.get("oneOf") or resolved.get("anyOf")
        if alternatives:
            text = " | ".join(dict.fromkeys(self.type_of(a, depth + 1) for a in alternatives))
        elif resolved.get("type") == "array":
            inner = self.type_of(resolved.get("items", {}), depth + 1)
            text = f"({inner})[]" if " " in inner else f"{inner}[]"
        elif name and (resolved.get("type") == "object" or "properties" in resolved):
            text = name
        elif resolved.get("type") == "object" or "additionalProperties" in resolved:
            extra = resolved.get("additionalProperties")
            text = f"{{string: {self.type_of(extra, depth + 1)}}}" if extra else "object"
        elif "type" in resolved:
            text = resolved["type"]
            if resolved.get("format"):
                text += f" ({resolved['format']})"
        else:
            text = "any"
        if nullable or resolved.get("nullable"):
            text += " | null"
        return text

    @staticmethod
    def constraints(schema: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key in ("minimum", "maximum", "minLength", "maxLength", "pattern"):
            if key in schema:
                value = schema[key]
                found[key] = value
        if "default" in schema:
            found["default"] = json.dumps(schema["default"])
        if schema.get("type") == "integer" and schema.get("maximum") == 2147483647:
            found.pop("maximum", None)  # the database's limit, not the API's
        found["read_only"] = bool(schema.get("readOnly"))
        found["write_only"] = bool(schema.get("writeOnly"))
        return found


# --------------------------------------------------------------------------- markdown

#: ``code`` (Markdown) or ````code```` (reStructuredText: a view's docstring)
_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def _inline(text: str) -> str:
    out, at = [], 0
    for match in _CODE.finditer(text):
        out.append(html.escape(text[at : match.start()]))
        out.append(f"<code>{html.escape(match.group(1) or match.group(2))}</code>")
        at = match.end()
    return "".join(out) + html.escape(text[at:])


def inline(text: str) -> SafeString:
    """One line of the schema's Markdown (a summary) as HTML, ``code`` kept."""
    return mark_safe(_inline(" ".join(text.split())))  # escaped parts only


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown(text: str) -> SafeString:
    """The little Markdown the schema's texts use -- paragraphs, ``code``, bulleted
    lists, pipe tables -- as HTML; everything else is escaped."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        if len(lines) >= 2 and all(line.lstrip().startswith("|") for line in lines):
            head, rows = _cells(lines[0]), [_cells(line) for line in lines[1:]]
            rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]
            out.append(
                '<div class="md-table"><table><thead><tr>'
                + "".join(f'<th scope="col">{_inline(c)}</th>' for c in head)
                + "</tr></thead><tbody>"
                + "".join(
                    "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows
                )
                + "</tbody></table></div>"
            )
        elif re.match(r"\s*[*-] ", lines[0]):
            items: list[str] = []
            for line in lines:
                if re.match(r"\s*[*-] ", line):
                    items.append(line.strip()[2:])
                elif items:
                    items[-1] += " " + line.strip()
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
        else:
            out.append("<p>" + _inline(" ".join(line.strip() for line in lines)) + "</p>")
    return mark_safe("".join(out))  # built from escaped parts only
