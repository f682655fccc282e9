"""The 2d10 system's web pages (``bot.web.views``): table, sheet, tracker and overlay."""
