"""Settings: the configuration file, flags and environment merged once into typed ValidateOptions and MigrateOptions."""
