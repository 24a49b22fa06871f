"""The clients' type declarations, generated from the contract by script/gen-client-stubs."""
