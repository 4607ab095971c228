"""How a later save of a paper merges into the one already stored.

A page save fills gaps and refreshes page data, but never touches what the user edited, never
replaces what arXiv's API supplied with the page's shorter version, never erases a field the
page lacks, and never changes a paper's identity (arXiv id, DOI, URL: the user can edit those).
"""

# Fields a page save can fill.
PAGE_FIELDS = (
    "arxiv_id", "arxiv_version", "doi", "url", "title", "authors", "authors_more", "abstract",
    "published", "affiliations", "topics", "primary_category", "categories", "journal_ref",
    "comments", "source_url",
)
# What makes two saves the same paper, in the order they are matched.
IDENTITY_FIELDS = ("arxiv_id", "doi", "url")


def page_save_changes(current: dict, incoming: dict, protected: set[str]) -> dict:
    """The fields to change, {name: new value}, when ``incoming`` (a page's save) meets the
    stored ``current`` values; ``protected``: fields the user edited or arXiv supplied."""
    changes = {}
    for key in PAGE_FIELDS:
        if key not in incoming or key in protected:
            continue
        new = incoming[key]
        old = current.get(key)
        if key == "topics":
            old = old or []
            new = old + [t for t in new if t.casefold() not in {o.casefold() for o in old}]
        elif key == "arxiv_version":
            new = max(old or 0, new or 0) or None
        elif new in (None, "", []):
            continue  # a page that lacks a field does not erase it
        elif key == "authors_more" and "authors" in protected:
            continue
        if key in IDENTITY_FIELDS and old and new != old:
            continue  # a paper's identity is set once; the user can PATCH it
        if new != old:
            changes[key] = new
    return changes
