"""papershelf: save, annotate and cite arXiv papers from the pages you read them on."""

__version__ = "0.1.0"
