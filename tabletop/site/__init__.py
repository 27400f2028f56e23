"""The rules website: a static site of every pack, one page per section, one anchor per rule."""
