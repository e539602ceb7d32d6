"""URL converters: only well-formed ids reach the views (a NUL or a path is a 404)."""


class PublicIdConverter:
    """A game's public id: ``secrets.token_urlsafe`` characters only."""

    regex = r"[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class DatabaseIdConverter:
    """A row's id that fits the database's 64-bit integer (at most 18 digits):
    a larger number is a 404, never an overflow in the query."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)
