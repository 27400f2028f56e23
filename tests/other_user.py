"""Opening a state database as another user would: root may write any file, so a test of a
read-only file run as root opens it as nobody."""

from __future__ import annotations

import os

from tabletop.store import StateStore, open_state

NOBODY = 65534


def state_as_another_user(path) -> StateStore:
    as_root = os.geteuid() == 0
    if as_root:
        os.setegid(NOBODY)
        os.seteuid(NOBODY)
    try:
        return open_state(path)
    finally:
        if as_root:
            os.seteuid(0)
            os.setegid(0)
