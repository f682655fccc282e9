"""What each web page shows, as a given viewer may see it: pure page data, no HTML.

Every page is an async function of a database connection and a ``Viewer`` that reads
through the repositories and returns frozen dataclasses of plain values (str, int,
bool, tuples of them), which the templates render with autoescape. Nothing here
formats: a name a user typed is handed on exactly as stored, never markdown-escaped.

Layout: ``viewer`` (who looks), ``common`` (shared values), ``rolls`` (the roll log),
``recaps`` (session recaps), ``version`` (the live pages' change check), ``registry``
(the one place that names both rulesets); each ruleset's pages are in ``hocs/`` and
``twod10/``, which never import each other.
"""
