"""A loopback HTTP proxy that serves CONNECT only, what https through a proxy uses.

It records each request head, can demand `Proxy-Authorization`, opens a TCP connection to the
host and port asked for, answers `200 Connection established` and relays bytes both ways,
keeping a copy of everything that went from the client to the server (to show it was TLS).
`ConnectProxy(tls=context)` is an https proxy: the client speaks TLS with the proxy itself too.
`routes` maps a `host:port` asked for to the loopback port that serves it, so a test reaches a
public name (the sample feed's pass host) without a network.
"""

from __future__ import annotations

import socket
import ssl
import threading

from loopback import LoopbackListener


class ConnectProxy(LoopbackListener):
    def __init__(self, authorization: str | None = None, tls: ssl.SSLContext | None = None,
                 routes: dict[str, int] | None = None):
        self.authorization = authorization
        self.routes = routes or {}
        self.tls = tls
        self.heads: list[str] = []
        self.upstream_bytes = bytearray()
        self._lock = threading.Lock()
        super().__init__()
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"

    def _serve(self, client: socket.socket) -> None:
        if self.tls is not None:
            try:
                client.settimeout(10)
                client = self.tls.wrap_socket(client, server_side=True)
            except (OSError, ssl.SSLError):
                client.close()
                return
        with client:
            client.settimeout(10)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(1)
                if not chunk:
                    return
                head += chunk
            text = head.decode("latin-1")
            with self._lock:
                self.heads.append(text)
            method, target, _ = text.split("\r\n", 1)[0].split(" ", 2)
            headers = dict(
                (name.strip().lower(), value.strip())
                for name, value in (line.split(":", 1) for line in text.split("\r\n")[1:] if ":" in line)
            )
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            if self.authorization is not None and headers.get("proxy-authorization") != self.authorization:
                client.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 6\r\n\r\ndenied")
                return
            host, port = target.rsplit(":", 1)
            if target in self.routes:
                host, port = "127.0.0.1", str(self.routes[target])
            try:
                upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
            except OSError:
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                back = threading.Thread(target=self._relay, args=(upstream, client, False), daemon=True)
                back.start()
                self._relay(client, upstream, True)
                back.join(10)

    def _relay(self, source: socket.socket, sink: socket.socket, upstream: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if upstream:
                    with self._lock:
                        self.upstream_bytes += chunk
                sink.sendall(chunk)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass
