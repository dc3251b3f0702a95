"""The on-disk contract: ``.blocks.jsonl`` rows and their sidecar files, read and written here."""
