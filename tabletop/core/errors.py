"""The one exception type front ends show to users as it is."""


class UserError(Exception):
    """A mistake in what the user typed: shown to them as a friendly message, changes nothing."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
