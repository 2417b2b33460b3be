"""`verbale matches`: the stored matches (placeholder until the listing lands)."""
