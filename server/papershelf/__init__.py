"""papershelf: save, annotate and cite arXiv papers from the pages you read them on."""

from importlib.metadata import PackageNotFoundError, version

# pyproject.toml's `version` is the one number (the extension's build is stamped with it too).
try:
    __version__ = version("papershelf")
except PackageNotFoundError:  # a source tree run without installing it
    __version__ = "0+unknown"
