"""The battles app's models, one module per area; import them from here."""
