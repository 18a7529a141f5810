"""Rules of the network proxy's configuration: modes, addresses, feature gates, logging, advice."""
