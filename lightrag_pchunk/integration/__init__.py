"""Chunks -> LightRAG: configuration, routing, the chunking functions, plugin hooks."""
