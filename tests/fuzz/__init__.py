"""A deterministic fuzz campaign: hostile and mutated inputs made from the fixtures and the corpus, and the checks svcconf must pass on each."""
