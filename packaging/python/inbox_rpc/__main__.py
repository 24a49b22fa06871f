"""`python -m inbox_rpc ARGS...`: the same as the `inbox-rpc` command."""

from inbox_rpc import main

main()
