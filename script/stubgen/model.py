"""The contract's types as a small model both renderers read: named declarations (objects with
fields, or aliases of a type) and type terms.

A term is a tuple: ("any",), ("prim", "string" | "integer" | "number" | "boolean" | "null"),
("lit", value), ("union", [terms]), ("array", term), ("map", term), ("ref", name). JSON Schema maps
onto it as: `$ref` → ref, `const`/`enum` → literals, `oneOf`/`anyOf`/a list of types → union,
`allOf` of a ref and members → an object with that base, an object with properties → a named object
(anonymous ones named after where they stand), an object without → map, `not` and `{}` → any.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

ANY = ("any",)
NULL = ("prim", "null")
PRIMS = {"string", "integer", "number", "boolean", "null"}


def pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def union(terms: List[tuple]) -> tuple:
    flat: List[tuple] = []
    for term in terms:
        for member in term[1] if term[0] == "union" else [term]:
            if member not in flat:
                flat.append(member)
    if ANY in flat:
        return ANY
    return flat[0] if len(flat) == 1 else ("union", flat)


class Field:
    def __init__(self, name: str, term: tuple, required: bool, doc: str) -> None:
        self.name, self.term, self.required, self.doc = name, term, required, doc


class Decl:
    """A named type: an object (`fields`, `bases`, `open` to more members) or an alias (`term`)."""

    def __init__(self, name: str, doc: str, term: Optional[tuple] = None) -> None:
        self.name, self.doc, self.term = name, doc, term
        self.fields: Dict[str, Field] = {}
        self.bases: List[str] = []
        self.open = True
        self.params_of: Optional[str] = None  # the method whose params this object holds


class Model:
    def __init__(self, document: Dict[str, Any]) -> None:
        self.decls: Dict[str, Decl] = {}
        schemas = document.get("components", {}).get("schemas", {})
        self.reserved = set(schemas)
        for name, schema in schemas.items():
            self.declare(name, schema)
        self.methods = document.get("methods", [])
        self.errors: Dict[str, Any] = document.get("components", {}).get("errors", {})
        self.params: Dict[str, str] = {}
        self.results: Dict[str, tuple] = {}
        for method in self.methods:
            self.params[method["name"]] = self.params_decl(method)
            if "result" in method:
                hint = pascal(method["name"]) + "Result"
                self.results[method["name"]] = self.declare(hint, method["result"].get("schema", {}))

    def unique(self, hint: str) -> str:
        name, n = hint, 1
        while name in self.decls or (name in self.reserved and name != hint):
            n += 1
            name = f"{hint}{n}"
        return name

    def declare(self, name: str, schema: Any) -> tuple:
        """`schema` under `name`: an object declaration, or an alias of its type."""
        term = self.term(schema, name)
        if term != ("ref", name):
            self.decls[name] = Decl(name, doc_of(schema), term)
        return ("ref", name)

    def term(self, schema: Any, hint: str) -> tuple:
        if not isinstance(schema, dict):
            return ANY
        if "$ref" in schema:
            return ("ref", schema["$ref"].rsplit("/", 1)[1])
        if "const" in schema:
            return ("lit", schema["const"])
        if "enum" in schema:
            return union([("lit", value) for value in schema["enum"]])
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return union([self.term(part, variant_hint(hint, part, i)) for i, part in enumerate(schema[key])])
        types = schema.get("type")
        if isinstance(types, list):
            return union([NULL if t == "null" else self.term({**schema, "type": t}, hint) for t in types])
        if "allOf" in schema or schema.get("properties"):
            parts = schema.get("allOf", [])
            if len(parts) == 1 and not schema.get("properties"):
                return self.term(parts[0], hint)
            return ("ref", self.object_decl(hint, schema))
        if types == "object":
            extra = schema.get("additionalProperties")
            return ("map", self.term(extra, hint + "Value") if isinstance(extra, dict) else ANY)
        if types == "array":
            return ("array", self.term(schema.get("items", {}), hint + "Item"))
        return ("prim", types) if types in PRIMS else ANY

    def object_decl(self, hint: str, schema: Dict[str, Any]) -> str:
        name = hint if hint in self.reserved and hint not in self.decls else self.unique(hint)
        decl = self.decls[name] = Decl(name, doc_of(schema))
        for part in [*schema.get("allOf", []), schema]:
            if "$ref" in part:
                decl.bases.append(part["$ref"].rsplit("/", 1)[1])
                continue
            required = set(part.get("required", []))
            for key, sub in part.get("properties", {}).items():
                decl.fields[key] = Field(key, self.term(sub, name + pascal(key)), key in required, doc_of(sub))
            for key in required & set(decl.fields):
                decl.fields[key].required = True
            decl.open = decl.open and part.get("additionalProperties", True) is not False
        return name

    def params_decl(self, method: Dict[str, Any]) -> str:
        name = self.unique(pascal(method["name"]) + "Params")
        decl = self.decls[name] = Decl(name, f"The params of {method['name']}.")
        decl.params_of, decl.open = method["name"], bool(method.get("x-additional-params"))
        for param in method.get("params", []):
            term = self.term(param.get("schema", {}), name + pascal(param["name"]))
            decl.fields[param["name"]] = Field(param["name"], term, bool(param.get("required")), doc_of(param))
        return name

    def inherited(self, decl: Decl) -> set:
        """The field names `decl` has from its bases, however deep."""
        names: set = set()
        for base in decl.bases:
            parent = self.decls.get(base)
            if parent is not None and parent.term is None:
                names |= set(parent.fields) | self.inherited(parent)
        return names

    def direction(self, method: Dict[str, Any]) -> str:
        """"request", "host" (a notification the host sends) or "server" (one the server sends)."""
        if not method.get("x-notification"):
            return "request"
        return "server" if method.get("x-direction") == "server-to-host" else "host"


def variant_hint(hint: str, part: Any, index: int) -> str:
    """A name for an anonymous member of a union: after its constant tag when it has one."""
    for sub in (part.get("properties", {}) if isinstance(part, dict) else {}).values():
        if isinstance(sub, dict) and isinstance(sub.get("const"), str):
            return hint + pascal(sub["const"])
    return f"{hint}{index + 1}"


def doc_of(schema: Any) -> str:
    if not isinstance(schema, dict):
        return ""
    return " ".join(filter(None, (schema.get("summary"), schema.get("description")))) or schema.get("title", "")


class Spelling:
    """How one language writes a term: a subclass names its `ANY` and `PRIMS` and gives `lit`,
    `array` and `map` (of the inner term's spelling) and `union` (of the member terms)."""

    ANY = ""
    PRIMS: Dict[str, str] = {}

    def term(self, term: tuple) -> str:
        kind = term[0]
        if kind == "any":
            return self.ANY
        if kind == "prim":
            return self.PRIMS[term[1]]
        if kind == "ref":
            return str(term[1])
        if kind in ("array", "map"):
            return str(getattr(self, kind)(self.term(term[1])))
        return str(getattr(self, kind)(term[1]))
