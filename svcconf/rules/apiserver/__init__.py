"""Rules of the API server's configuration files: admission and its plugins, audit, authentication, authorization, egress, encryption, tracing."""
