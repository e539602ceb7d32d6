"""Admin registrations, one block per area."""
