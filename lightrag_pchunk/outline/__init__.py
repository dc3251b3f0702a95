"""The document outline, decided from the text and look of lines: numbering families, the
heading classifier shared by every parser and by stage C's anchors, tables of contents."""
