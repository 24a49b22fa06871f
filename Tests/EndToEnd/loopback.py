"""A loopback TCP listener that serves each connection on a thread of its own: what the tests'
stand-in servers (the CONNECT proxy, the wallet pass server) share."""

from __future__ import annotations

import socket
import threading


class LoopbackListener:
    """Listens on 127.0.0.1 (a free port, `port`) and hands each connection to `_serve`."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._closed = True
        try:
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        raise NotImplementedError
