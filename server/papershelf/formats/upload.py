"""An uploaded file's bytes as text, and the format its text is in: what an import reads first.

Files come as BibTeX users write them: UTF-8 (with or without a BOM), UTF-16 or UTF-32 from
Windows tools, and 8-bit Windows-1252 from old ones (BibTeX reads bytes, so such files work
there). ``decode_upload`` reads them all and raises ``FormatError`` for what is no text at all;
``sniff_format`` tells a papershelf backup, CSL-JSON and BibTeX apart by their first characters.
"""

from __future__ import annotations

import codecs

from . import FormatError

# Windows-1252 for the bytes 0x80-0x9F it defines; the five it leaves undefined keep their
# Latin-1 meaning, so that every byte decodes (as BibTeX, which reads bytes, would take them).
_CP1252 = {b: bytes([b]).decode("cp1252") for b in range(0x80, 0xA0)
           if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 written without a BOM (every other byte NUL in ASCII text): its byte order."""
    if len(data) < 4 or len(data) % 2:
        return None
    if data[1::2].count(0) > len(data) // 4 and not data[0::2].count(0):
        return "utf-16-le"
    if data[0::2].count(0) > len(data) // 4 and not data[1::2].count(0):
        return "utf-16-be"
    return None


def decode_upload(data: bytes) -> str:
    """The uploaded file as text: UTF-8 (a BOM is dropped); UTF-16 or UTF-32 when a BOM (or
    UTF-16's NUL bytes) says so; anything else as Windows-1252. A FormatError for what is no
    text at all."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    encoding = encoding or _utf16_without_bom(data)
    if encoding:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as error:
            raise FormatError(f"the file is not {encoding.upper()} text (byte {error.start})") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1").translate(_CP1252)
    if "\x00" in text:
        raise FormatError("the file is not text (it holds NUL bytes)")
    return text.removeprefix("\ufeff")


def sniff_format(text: str) -> str:
    """The import format a file's text is in, by how it starts: a backup names itself in its
    head, CSL-JSON is a JSON array or object, anything else is read as BibTeX."""
    head = text.lstrip()[:2000]
    if head.startswith("{") and "papershelf-backup" in head:
        return "json"
    if head.startswith(("[", "{")):
        return "csljson"
    return "bibtex"
