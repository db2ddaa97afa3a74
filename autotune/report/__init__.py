"""Reports and exports of what the database holds."""
