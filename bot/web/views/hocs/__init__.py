"""Heroes of Countless Stories' web pages (``bot.web.views``): table, sheet, tracker and overlay."""
