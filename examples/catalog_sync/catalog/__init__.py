"""catalog_sync: page through a product API and report what changed in the catalog."""
