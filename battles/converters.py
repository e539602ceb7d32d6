"""URL converters: only well-formed ids reach the views (a NUL or a path is a 404)."""


class PublicIdConverter:
    """A game's public id: ``secrets.token_urlsafe`` characters only."""

    regex = r"[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
