"""``evaluate``: does P retrieve better than R and F on a user's own documents, and at what cost?

Questions are made from the documents themselves (``questions.py``), every contender chunks
the same text (``contenders.py``), one retriever per contender ranks its chunks
(``retrieval.py``), ``scoring.py`` decides which retrieved chunks answer, ``metrics.py``
aggregates, ``report_text.py`` / ``report_html.py`` present it; ``run.py`` ties them
together. This package sits beside ``integration/`` and may import LightRAG.
"""
