"""Stages B-E of the P strategy: ``list[Block]`` in, ``list[Chunk]`` out. Never imports lightrag."""
