"""LightRAG's storages and workspace chosen from the environment as ``lightrag-server`` does
(``integration/storages.py``). ``ingest`` following them: ``tests/cli/test_ingest_storages.py``,
and on PostgreSQL ``test_server_postgres.py``, beside the server that reads what it wrote."""

from __future__ import annotations

from types import SimpleNamespace

from lightrag import LightRAG

from lightrag_pchunk import storage_options
from lightrag_pchunk.cli.offline_models import build_offline_rag
from lightrag_pchunk.integration.storages import describe_storage, mismatches, storage_choice

FILE_DEFAULTS = {
    "kv_storage": "JsonKVStorage",
    "doc_status_storage": "JsonDocStatusStorage",
    "vector_storage": "NanoVectorDBStorage",
    "graph_storage": "NetworkXStorage",
}
POSTGRES = {
    "LIGHTRAG_KV_STORAGE": "PGKVStorage",
    "LIGHTRAG_DOC_STATUS_STORAGE": "PGDocStatusStorage",
}


def test_unset_variables_choose_lightrags_own_defaults() -> None:
    assert storage_options({}) == {**FILE_DEFAULTS, "workspace": ""}
    fields = LightRAG.__dataclass_fields__
    assert all(fields[keyword].default == name for keyword, name in FILE_DEFAULTS.items())


def test_the_servers_variables_choose_the_storages_and_the_workspace() -> None:
    env = {**POSTGRES, "LIGHTRAG_VECTOR_STORAGE": "", "WORKSPACE": "team_a"}
    choice = storage_choice(env)
    assert choice.options() == {
        **FILE_DEFAULTS,
        "kv_storage": "PGKVStorage",
        "doc_status_storage": "PGDocStatusStorage",
        "workspace": "team_a",
    }
    # An empty value is the default; only what is set counts as configured.
    assert set(choice.configured) == {"kv_storage", "doc_status_storage", "workspace"}


def test_a_workspace_is_kept_as_the_server_keeps_it_and_the_flag_wins() -> None:
    assert storage_choice({"WORKSPACE": "team-a.b"}).workspace == "team_a_b"
    assert storage_choice({"WORKSPACE": "env"}, workspace="flag").workspace == "flag"


def test_an_instance_built_otherwise_is_named_with_each_difference(tmp_path) -> None:
    rag = build_offline_rag(tmp_path / "rag")  # LightRAG's defaults, no workspace
    choice = storage_choice({**POSTGRES, "WORKSPACE": "team_a"})
    assert mismatches(rag, choice) == [
        "LIGHTRAG_KV_STORAGE=PGKVStorage but JsonKVStorage",
        "LIGHTRAG_DOC_STATUS_STORAGE=PGDocStatusStorage but JsonDocStatusStorage",
        "WORKSPACE=team_a but none",
    ]
    assert mismatches(rag, storage_choice({})) == []


def test_where_the_data_goes_is_said_unless_it_is_the_working_dir_itself(
    tmp_path, monkeypatch
) -> None:
    assert describe_storage(build_offline_rag(tmp_path / "plain")) == ""
    in_workspace = build_offline_rag(tmp_path / "rag", workspace="team_a")
    assert describe_storage(in_workspace) == (
        f"key-value and doc status and vectors and graph in files of {tmp_path}/rag/team_a"
    )
    for name, value in {"POSTGRES_USER": "rag", "POSTGRES_DATABASE": "kb"}.items():
        monkeypatch.setenv(name, value)
    for name in ("POSTGRES_HOST", "POSTGRES_PORT"):
        monkeypatch.delenv(name, raising=False)
    # An instance not initialised yet: only its storage names and folders are read.
    names = {**FILE_DEFAULTS, "kv_storage": "PGKVStorage"}
    names["doc_status_storage"] = "PGDocStatusStorage"
    mixed = SimpleNamespace(working_dir=str(tmp_path / "rag"), workspace="team_a", **names)
    assert describe_storage(mixed) == (
        "key-value and doc status in PostgreSQL kb@localhost:5432 as rag (workspace team_a); "
        f"vectors and graph in files of {tmp_path}/rag/team_a"
    )
