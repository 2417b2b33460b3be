"""Score sheets written by people (card games): CSV, checked against the stored matches."""
