"""The library page: server-rendered Jinja pages plus a little plain JavaScript against the API."""
