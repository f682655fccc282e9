// Live updates for tablebot's pages (bot/web/live.py): the page listens to its event
// stream and, when the table changed, fetches itself again and swaps its <main>, so
// nothing reloads and the scroll position stays. Without this script the pages work
// and are simply static. Served by the bot itself (script-src 'self'), no inline code.
"use strict";

(() => {
  const body = document.body;
  const eventsUrl = body && body.dataset.events;
  if (!eventsUrl || typeof EventSource === "undefined") {
    return;
  }
  // For tests and the curious: when this page was loaded, how often it was refreshed.
  const live = (window.tablebotLive = { loadedAt: Date.now(), refreshes: 0, state: "starting" });
  let source = null;
  let fetching = false;
  let again = false;

  function swapMain(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const main = document.querySelector("main");
    const next = fresh.querySelector("main");
    if (!main || !next) {
      return false;
    }
    const x = window.scrollX;
    const y = window.scrollY;
    main.replaceChildren(...Array.from(next.childNodes, (node) => document.importNode(node, true)));
    if (fresh.title) {
      document.title = fresh.title;
    }
    window.scrollTo(x, y);
    if (typeof localTimes === "function") {
      localTimes(main); // (tablebot.js: times in the visitor's zone)
    }
    live.refreshes += 1;
    document.dispatchEvent(new CustomEvent("tablebot:updated"));
    return true;
  }

  // Fetch this very page again (its filters and paging too) and show its <main>.
  async function refresh() {
    if (fetching) {
      again = true; // (one more fetch after this one: it may have read too early)
      return;
    }
    fetching = true;
    try {
      const response = await fetch(window.location.href, {
        cache: "no-store",
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      if (response.status === 403) {
        stop();
        window.location.reload(); // the link was revoked: show the refusal, hide the rest
        return;
      }
      if (response.ok) {
        swapMain(await response.text());
      }
    } catch (error) {
      // The bot is away (a restart): the stream reconnects and says when to try again.
    } finally {
      fetching = false;
    }
    if (again) {
      again = false;
      refresh();
    }
  }

  function stop() {
    if (source) {
      source.close();
      source = null;
    }
    live.state = "closed";
  }

  function open() {
    const version = body.dataset.version || "";
    const url = eventsUrl + (version ? "?since=" + encodeURIComponent(version) : "");
    source = new EventSource(url);
    source.addEventListener("ready", () => {
      live.state = "open";
    });
    source.addEventListener("changed", refresh);
    source.addEventListener("gone", () => {
      stop();
      window.location.reload();
    });
    source.addEventListener("error", () => {
      // A dropped connection (the bot restarting) reconnects by itself (the stream's
      // "retry:"); a refused one (503: too many live pages, 403: a revoked link) is
      // closed for good, so look at the page and try again a little later.
      if (source && source.readyState === EventSource.CLOSED) {
        stop();
        live.state = "retrying";
        refresh();
        setTimeout(open, 5000 + Math.random() * 25000);
      } else {
        live.state = "reconnecting";
      }
    });
  }

  open();
})();
