"""Private: see the `xeri` package for the public names."""
