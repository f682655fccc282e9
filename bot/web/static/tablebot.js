// Tablebot's pages work without this script; it only adds comfort. Served by the bot
// itself (script-src 'self'): no other origin, no inline code.
"use strict";

// Times the bot wrote as <time datetime="…Z"> read in the visitor's own time zone.
function localTimes(root) {
  for (const element of root.querySelectorAll("time[datetime]")) {
    const when = new Date(element.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      element.textContent = when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      element.title = element.getAttribute("datetime");
    }
  }
}

document.addEventListener("DOMContentLoaded", () => localTimes(document));
