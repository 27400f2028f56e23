"""The one exception type front ends show to users as it is, and the one way an unexpected
failure is told: logged with a short id, the asker given that id to quote."""

from __future__ import annotations

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
