"""Displays: matplotlib figures of the measures (matplotlib is imported only to draw)."""
