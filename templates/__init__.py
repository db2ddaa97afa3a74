"""jinja2 templates of autotune, shipped as the package autotune.templates."""
