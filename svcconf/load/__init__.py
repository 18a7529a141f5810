"""Files in and out: which files to read (discovery), bytes to documents with positions (source), values typed as the server's YAML reader types them (construct), and atomic writes (atomic)."""
