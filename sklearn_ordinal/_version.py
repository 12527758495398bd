"""The version of the package, alone in its module so that anything may import it."""

__version__ = "0.2.0.dev0"
