"""Stage A for Markdown: ``.md`` / ``.markdown`` -> the same ``BlockRow``s and blocks file as a
.docx, through the same writer (``parse/artefacts.py``)."""
