"""The ``lightrag-pchunk`` command line: parse, chunk, inspect, ingest, demo."""
