"""One file per schema change, oldest first: v0001 makes the schema."""
