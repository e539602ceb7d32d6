"""Forms of the battles app, one module per area."""
