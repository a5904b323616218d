"""The test session's load cache on disk (dsl/cache.py): a folder of its own, never the
user's; a developer may choose another with SPECIATION_CACHE_DIR (or turn it off)."""
import os
import tempfile

os.environ.setdefault("SPECIATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "speciation-test-cache"))
