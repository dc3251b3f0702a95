"""lightrag-pchunk: Paragraph Semantic (P) chunking of DOCX for LightRAG."""
