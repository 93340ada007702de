"""Import and export of the land register in CSV and XLSX (preview first, then all or nothing)."""
