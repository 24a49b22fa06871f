"""What the client knows of the server, all of it read from the OpenRPC document (`rpc.discover`, or
`Schemas/openrpc.json`): the methods a host calls, as attributes grouped by the dots of their names, and
an exception class per named error. Nothing here names either: one more in the contract needs no code."""

import keyword
from types import SimpleNamespace
from typing import Any, Dict, List, Mapping, Optional, Tuple, Type


class InboxRpcError(Exception):
    """An error reply: `name` is its key in `components/errors` (None for a code the contract does
    not name); `code`, `message` and `data` are the reply's; `method` is the call's."""

    name: Optional[str] = None

    def __init__(self, code: Any, message: str, data: Any = None, method: Optional[str] = None) -> None:
        super().__init__(code, message, data)
        self.code, self.message, self.data, self.method = code, message, data, method

    def __str__(self) -> str:
        name = f", {self.name}" if self.name else ""
        return f"{self.method or '?'}: {self.message} ({self.code}{name}) {self.data or ''}".rstrip()


_classes: Dict[Tuple[str, int], Type[InboxRpcError]] = {}  # one per name and code: `except a.errors.X` catches b's X


def error_class(name: str, code: int, doc: str) -> Type[InboxRpcError]:
    if (name, code) not in _classes:
        _classes[name, code] = type(name, (InboxRpcError,), {"name": name, "__doc__": doc, "__module__": __name__})
    return _classes[name, code]


class Contract:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.methods = {m["name"]: m for m in document.get("methods", []) if m.get("x-direction") != "server-to-host"}
        named = document.get("components", {}).get("errors", {})
        self._by_code = {e["code"]: error_class(name, e["code"], str(e.get("data", ""))) for name, e in named.items()}
        #: `client.errors.MessageNotFound`; `vars(client.errors)` names them all.
        self.errors = SimpleNamespace(**{cls.__name__: cls for cls in self._by_code.values()})

    def error(self, error: Any, method: str) -> InboxRpcError:
        """The exception for a reply's error: the named class of its code, else the base (holding
        the repr of an error that is no object)."""
        error = error if isinstance(error, Mapping) else {"message": repr(error)}
        code, message = error.get("code"), error.get("message")
        cls = self._by_code.get(code, InboxRpcError) if isinstance(code, int) else InboxRpcError
        return cls(code, message if isinstance(message, str) else "", error.get("data"), method)

    def members(self, prefix: str) -> List[str]:
        """The attribute names one dot below `prefix` ("" or "feed."): methods and namespaces."""
        found = {name[len(prefix):].split(".")[0] for name in self.methods if name.startswith(prefix)}
        return sorted(n for n in found if n.isidentifier() and not keyword.iskeyword(n))


class Namespace:
    """`client.feed` and `client.feed.list`: an attribute goes one dot deeper; calling calls the
    method of that name (a host notification such as `exit` is sent); `.start(...)` gives a `Call`."""

    def __init__(self, client: Any, name: str) -> None:
        self._client, self._name, self._spec = client, name, client.contract.methods.get(name)
        self.__doc__ = "\n\n".join(filter(None, ((self._spec or {}).get(key) for key in ("summary", "description"))))

    def __getattr__(self, name: str) -> "Namespace":
        return member(self._client, self._name + ".", name)

    def __dir__(self) -> List[str]:
        return list(self._client.contract.members(self._name + "."))

    def __call__(self, params: Any = None, /, **named: Any) -> Any:
        send = self._client.notify if self._method().get("x-notification") else self._client.call
        return send(self._name, params, **named)

    def start(self, params: Any = None, /, **named: Any) -> Any:
        self._method()
        return self._client.start(self._name, params, **named)

    def _method(self) -> Mapping[str, Any]:
        if self._spec is None:
            raise TypeError(f"{self._name} is a namespace of the contract, not a method")
        return dict(self._spec)

    def __repr__(self) -> str:
        return f"<inbox-rpc {self._name}: {', '.join(self.__dir__()) or 'a method'}>"


def member(client: Any, prefix: str, name: str) -> Namespace:
    """`prefix + name` when the contract has a method so named or under it."""
    if name.startswith("_") or name not in client.contract.members(prefix):
        raise AttributeError(f"the contract has no method or namespace {prefix + name!r}")
    return Namespace(client, prefix + name)
