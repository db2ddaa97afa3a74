"""Loop analysis: trip counts, weighted ops, data footprint (entry: ``loop.analyze_loop``)."""
