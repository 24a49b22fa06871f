"""The loopback backend the contract's examples were recorded against, for the Node client's
tests: prints one JSON line (the server's arguments and environment for a store at argv[1], and the
recorded scenario's steps in order), then serves until its stdin closes."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Schemas"))
import record_examples  # noqa: E402

with record_examples.example_backend() as setup:
    command = record_examples.server_command("inbox-rpc", sys.argv[1], setup)
    print(json.dumps({
        "args": command[1:],
        "env": record_examples.server_environment(setup),
        "steps": [[method, name] for method, name, _ in record_examples.SCENARIO],
    }), flush=True)
    sys.stdin.read()
