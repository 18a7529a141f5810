"""Rules of the scheduler's configuration: profiles, plugin args, extenders."""
