"""The one exception type front ends show to users as it is, and the one way an unexpected
failure is told: logged with a short id, the asker given that id to quote."""

from __future__ import annotations

import errno
import logging
import uuid

from tabletop.core.i18n import t

log = logging.getLogger(__name__)


class UserError(Exception):
    """A mistake in what the user typed: shown to them as a friendly message, changes nothing."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def unexpected(error: BaseException, where: str) -> str:
    """Log a failure nobody foresaw with a short id, and the sentence that quotes it (in the
    request's language): a user reports the id, the log shows what happened."""
    error_id = uuid.uuid4().hex[:8]
    log.error("%s failed [%s]", where, error_id, exc_info=error, extra={"error_id": error_id})
    return t("error.unexpected", error_id=error_id)


_OS_REASONS = {
    errno.ENOENT: "os.missing",
    errno.EACCES: "os.permission",
    errno.EPERM: "os.permission",
    errno.EROFS: "os.read_only",
}


def os_reason(exc: OSError) -> str:
    """Why the system refused a file, in the reader's language where the cause is a common one
    (the system's own words are English); else as the system said it."""
    from tabletop.core.i18n import t

    key = _OS_REASONS.get(exc.errno or 0)
    return t(key) if key else (exc.strerror or str(exc))
