#!/usr/bin/env python3
"""A stand-in server for the clients' drift tests: it serves a contract it is given, not the one
compiled into inbox-rpc, so a test can add a method and a named error to a copy of `Schemas/` and
show that every client calls the one and raises the other without a change to the client.

    contract_double.py CONTRACT ANSWERS

CONTRACT is an OpenRPC document, answered as is to `rpc.discover`. ANSWERS is a JSON object from
method name to `{"result": …}` or `{"error": {"code", "message", "data"?}}`; a method in neither
gets -32601. Frames are newline-delimited JSON on stdin/stdout, one reply a request, in order;
notifications (no id) get no reply. It ends at end of input.
"""

from __future__ import annotations

import json
import sys


def answer(request: dict, contract: dict, answers: dict) -> dict:
    method = request.get("method")
    if method == "rpc.discover":
        return {"result": contract}
    if method in answers:
        return answers[method]
    return {"error": {"code": -32601, "message": "Method not found", "data": {"method": method}}}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        contract = json.load(file)
    with open(sys.argv[2], encoding="utf-8") as file:
        answers = json.load(file)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if "id" not in request:
            continue
        reply = {"jsonrpc": "2.0", "id": request["id"], **answer(request, contract, answers)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
