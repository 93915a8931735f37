/* Pablo's service worker (served at /sw.js: its scope is the whole site).
 * docs/notifications.md "The installable app".
 *
 * - Kept in the cache: the pages' static files and the offline page, nothing else.
 *   A page or an answer that can hold a card -- the table, its feed, the API, the
 *   replays -- is never put in the cache and never answered from it: only what
 *   is under the static prefix (and the offline page) is ever stored.
 * - A page (a navigation) comes from the network; when the network fails, the
 *   offline page is shown instead -- never an old copy of the page.
 * - push: the payload {"kind", "game", "title", "body", "url"} becomes one
 *   notification per game (tag = the game's id): a newer one replaces it.
 * - notificationclick: the game's table, in a window of this site if one is open.
 */
"use strict";
const PABLO = {{ config }};
const CACHE = "pablo-" + PABLO.version;

function keepable(url) {
  return url.origin === self.location.origin &&
    (url.pathname.startsWith(PABLO.static) || url.pathname === PABLO.offline);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // The offline page must be kept (else the install fails and the next page tries
      // again); a static file that fails to load now is fetched and kept when first used.
      .then((cache) => Promise.all([
        cache.add(PABLO.offline),
        Promise.allSettled(PABLO.kept.map((url) => cache.add(url))),
      ]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

async function page(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch (error) {
    const offline = await caches.match(PABLO.offline);
    return offline || Response.error();
  }
}

async function kept(request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(request);
  if (found) return found;
  const response = await fetch(request);
  if (response.ok && response.type === "basic" && keepable(new URL(response.url))) {
    cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith(PABLO.static)) {
    event.respondWith(kept(request));
  }
  // Anything else (the API, the feeds, a table's redraw) is the browser's own fetch.
});

function sameSite(address) {
  try {
    const url = new URL(address, self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const title = data.title || "Pablo";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.game || "pablo",
    renotify: Boolean(data.game),
    icon: PABLO.icon,
    badge: PABLO.badge,
    data: { url: sameSite(data.url || "/"), kind: data.kind || "", game: data.game || "" },
  }));
});

/* The table of the notification's game: a window of this site already open goes
 * there (the table's own, or any); otherwise a new window opens. */
async function openTable(notification) {
  const url = sameSite((notification.data && notification.data.url) || "/");
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const there = windows.find((w) => w.url === url) || windows.find((w) => w.url.startsWith(self.location.origin));
  if (there) {
    try {
      const moved = there.url === url ? there : await there.navigate(url);
      if (moved) {
        try { await moved.focus(); } catch (error) { /* focus needs the click's permission */ }
        return moved;
      }
    } catch (error) { /* not a window this worker controls: open one */ }
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openTable(event.notification));
});
