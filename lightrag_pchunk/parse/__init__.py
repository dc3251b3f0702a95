"""DOCX -> ``.blocks.jsonl`` rows and sidecar records (stage A, done by the parser)."""
