"""The HTTP API's reference page (``/docs``), written from the app's OpenAPI schema.

FastAPI's own pages load Swagger UI or ReDoc from a CDN: on a machine with no
internet, or behind a policy that allows only this server's own files, they show
nothing. This page is plain HTML built on the server from the same schema, so it
says exactly what ``/openapi.json`` says and needs nothing from elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any, Final

SCHEMA_PREFIX: Final = "#/components/schemas/"
CONSTRAINTS: Final = (
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minimum", "at least {}"),
    ("maximum", "at most {}"),
    ("pattern", "matching <code>{}</code>"),
)
STYLE: Final = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
code { font: 0.9em ui-monospace, monospace; background: #f2f2f2; padding: 0 0.2em; }
h2 { margin-top: 2.5rem; border-top: 1px solid #ccc; padding-top: 1rem; }
h3 { margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.2rem 0.8rem 0.2rem 0; border-bottom: 1px solid #eee; }
.method { font-weight: bold; }
"""


def api_reference(openapi: dict[str, Any]) -> str:
    """The whole page: the operations in the schema's order, then the bodies they take and give."""
    info = openapi["info"]
    operations = [
        _operation(method, path, operation)
        for path, methods in openapi["paths"].items()
        for method, operation in methods.items()
    ]
    schemas = [
        _schema(name, schema) for name, schema in openapi.get("components", {}).get("schemas", {}).items()
    ]
    title = escape(f"{info['title']} {info['version']}: HTTP API")
    return "\n".join(
        [
            '<!doctype html><html lang="en"><head><meta charset="utf-8">',
            f'<meta name="viewport" content="width=device-width"><title>{title}</title>',
            f"<style>{STYLE}</style></head><body>",
            f"<h1>{title}</h1>",
            f"<p>{_text(info.get('summary', ''))}</p>",
            _paragraphs(info.get("description", "")),
            '<p>The same in machine-readable form: <a href="/openapi.json">/openapi.json</a> (OpenAPI '
            f'{escape(openapi["openapi"])}). Every refusal is a <a href="#Problem">Problem</a>.</p>',
            "<h2>Operations</h2>",
            *operations,
            "<h2>Bodies</h2>",
            *schemas,
            "</body></html>",
        ]
    )


def _operation(method: str, path: str, operation: dict[str, Any]) -> str:
    """One operation: what it does, what it reads from the request, what it answers."""
    parts = [
        f'<h3 id="{escape(operation.get("operationId", path))}"><span class="method">{method.upper()}</span>'
        f" <code>{escape(path)}</code></h3>",
        _paragraphs(operation.get("description") or operation.get("summary", "")),
    ]
    parameters = operation.get("parameters", [])
    if parameters:
        rows = [
            (
                f"<code>{escape(p['name'])}</code>",
                p["in"],
                _type(p.get("schema", {})),
                _required(p),
                _about(p),
            )
            for p in parameters
        ]
        parts.append(_table(("parameter", "in", "type", "", "meaning"), rows))
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None:
        parts.append(f"<p>Body: {_type(body)}</p>")
    answers = [
        (escape(status), _type(_json_schema(answer)), _text(answer.get("description", "")))
        for status, answer in operation.get("responses", {}).items()
    ]
    parts.append(_table(("status", "body", "when"), answers))
    return "\n".join(parts)


def _schema(name: str, schema: dict[str, Any]) -> str:
    """One body's fields, with their types, defaults and meanings."""
    required = set(schema.get("required", []))
    rows = [
        (
            f"<code>{escape(field)}</code>",
            _type(about),
            "required" if field in required else _default(about),
            _about(about),
        )
        for field, about in schema.get("properties", {}).items()
    ]
    table = _table(("field", "type", "", "meaning"), rows) if rows else f"<p>{_type(schema)}</p>"
    return (
        f'<h3 id="{escape(name)}">{escape(name)}</h3>\n{_paragraphs(schema.get("description", ""))}\n{table}'
    )


def _type(schema: dict[str, Any]) -> str:
    """A JSON schema's type in a few words, each named body a link to its fields."""
    if "$ref" in schema:
        name = escape(schema["$ref"].removeprefix(SCHEMA_PREFIX))
        return f'<a href="#{name}">{name}</a>'
    if "anyOf" in schema:
        return " or ".join(_type(option) for option in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(f"<code>{escape(repr(value))}</code>" for value in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {_type(schema['additionalProperties'])}"
    limits = [words.format(escape(str(schema[key]))) for key, words in CONSTRAINTS if key in schema]
    return escape(str(kind)) + (f" ({', '.join(limits)})" if limits else "")


def _json_schema(answer: dict[str, Any]) -> dict[str, Any]:
    """The schema of a response's JSON body; an empty one (any) if it declares none."""
    schema: dict[str, Any] = answer.get("content", {}).get("application/json", {}).get("schema", {})
    return schema


def _required(parameter: dict[str, Any]) -> str:
    return "required" if parameter.get("required") else _default(parameter.get("schema", {}))


def _default(schema: dict[str, Any]) -> str:
    return f"default <code>{escape(repr(schema['default']))}</code>" if "default" in schema else "optional"


def _about(field: dict[str, Any]) -> str:
    return _text(field.get("description", ""))


def _table(heads: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    head = "".join(f"<th>{escape(text)}</th>" for text in heads)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{_text(block)}</p>" for block in re.split(r"\n\s*\n", text.strip()) if block.strip())


def _text(text: str) -> str:
    """Escaped prose, with the docstrings' ``literal`` marks as code."""
    return re.sub(r"``(.+?)``", r"<code>\1</code>", escape(text))
