"""Rules of wire payloads and events: objects that travel between components rather than configure them."""
