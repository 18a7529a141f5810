"""Loading: which files to read (discovery), bytes to documents with positions (source), values typed as the server's YAML reader types them."""
