"""The running process: shards it answers, logging that hides the token, idle-time garbage
collection.
"""
