from __future__ import annotations

import pytest

from lightrag_pchunk.integration.registry import close_registries


@pytest.fixture
def fresh_lightrag_state():
    """What a new process finds, before and after the test: no registry open, and LightRAG's
    process-wide storage state (kept per workspace, even across working dirs) gone."""
    from lightrag.kg.shared_storage import finalize_share_data

    close_registries()
    yield
    close_registries()
    finalize_share_data()
