"""Getting answers to the table: replies that never ping by accident, secret rolls to the
GM, Discord retries, follow-up work after a reply, and custom bot events.
"""
