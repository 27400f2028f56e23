"""Files a reply carries (the odds chart), written where the person at the console can open them."""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from pathlib import Path

from tabletop.core.render import Attachment


def save(attachment: Attachment) -> str:
    """An attachment (the odds chart) written where the person can open it; its path, or its
    name and size when nothing can be written."""
    folder = Path(tempfile.gettempdir()) / f"ti4-rules-bot-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        stem, _, ext = Path(attachment.name).name.rpartition(".")
        path = folder / f"{stem}-{time.strftime('%H%M%S')}-{uuid.uuid4().hex[:4]}.{ext}"
        path.write_bytes(attachment.data)
        return str(path)
    except OSError:
        return f"{attachment.name} ({len(attachment.data) // 1024 + 1} KB)"
