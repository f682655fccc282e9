"""The table's web pages (issue 28, docs/web.md): served by the bot's own aiohttp.

``server`` (the application, started with the bot when WEB_PORT is set), ``tokens``
(signed links), ``access`` (a link's :class:`~bot.web.access.Viewer` and the page
registry), ``security`` (headers, error pages, logs without tokens), ``rendering``
(templates and static files), ``limits`` (page and stream bounds), ``links`` (the
links ``/web`` hands out), one module per page (``table_page``), and ``views/``: what
each page shows a viewer, as plain values.
"""
