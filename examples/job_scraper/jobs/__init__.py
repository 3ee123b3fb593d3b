"""job_scraper: read job listings from a careers page and summarise them."""
