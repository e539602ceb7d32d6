"""Services: one function per player action, each in one transaction."""
