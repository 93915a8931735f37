/* The installable app and Web Push on the pages (docs/notifications.md "On the pages").
 *
 * - Registers the service worker (/sw.js, scope "/") on every page.
 * - "Notify me on this device" (#push-control, lobby and table, signed in, server
 *   with VAPID keys): shown only where the browser can subscribe. A click asks
 *   for the permission, subscribes with the server's key (GET /api/push/key/)
 *   and sends the subscription to POST /api/me/push/ (session cookie + CSRF).
 *   A device already subscribed and known to the server says so instead; one
 *   removed on the account page offers the button again.
 * - iOS: Safari delivers push only to a web app added to the Home Screen; in the
 *   browser, the table says so once (#ios-hint, remembered in localStorage).
 * - The account page (#devices) marks this device, and its Remove also ends the
 *   browser's subscription.
 */
(function () {
  "use strict";
  var HINT_KEY = "pablo.ios-hint";
  var supported = "serviceWorker" in navigator;
  var ready = supported
    ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      })
    : Promise.reject(new Error("no service worker"));
  ready.catch(function () {});

  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function keyBytes(text) {
    var b64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(b64);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function sameKey(sub, key) {
    var had = sub.options && sub.options.applicationServerKey;
    if (!had) return false;
    var bytes = new Uint8Array(had);
    if (bytes.length !== key.length) return false;
    for (var i = 0; i < key.length; i++) if (bytes[i] !== key[i]) return false;
    return true;
  }

  function isIos() {
    var ua = navigator.userAgent || "";
    return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  }

  function standalone() {
    return navigator.standalone === true ||
      (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
  }

  function subscription() {
    return ready.then(function (reg) { return reg.pushManager.getSubscription(); });
  }

  // ------------------------------------------------------------------ the control
  var control = document.getElementById("push-control");
  // (iOS delivers push only to a Home Screen app: its browser tab is told so instead)
  var canPush = supported && "PushManager" in window && "Notification" in window &&
    !(isIos() && !standalone());

  function show(state, text) {
    if (!control) return;
    control.hidden = false;
    control.querySelector("[data-push-ask]").hidden = state !== "ask";
    control.querySelectorAll("[data-push-state]").forEach(function (p) {
      p.hidden = p.dataset.pushState !== state;
      if (text && p.dataset.pushState === state) p.textContent = text;
    });
  }

  function known(endpoint) {  // is this endpoint one of the account's devices?
    return fetch(control.dataset.devices, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (rows) { return rows.some(function (row) { return row.endpoint === endpoint; }); });
  }

  function send(sub) {
    return fetch(control.dataset.devices, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(sub.toJSON()),
    }).then(function (r) {
      if (r.ok) return show("on");
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (data && data.detail) show("refused", data.detail);
        else show("failed");
      });
    });
  }

  function ask() {
    Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") return show(answer === "denied" ? "blocked" : "ask");
      return fetch(control.dataset.key, { headers: { "Accept": "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
        .then(function (data) {
          var key = keyBytes(data.public_key);
          return ready.then(function (reg) {
            // A subscription made under another key (the server's keys were rotated)
            // is ended first: the browser refuses to subscribe again under a new one.
            return reg.pushManager.getSubscription().then(function (old) {
              return old && !sameKey(old, key) ? old.unsubscribe() : null;
            }).then(function () {
              return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
            });
          });
        })
        .then(send);
    }).catch(function () { show("failed"); });
  }

  if (control && canPush) {
    control.querySelector("[data-push-ask]").addEventListener("click", ask);
    if (Notification.permission === "denied") {
      show("blocked");
    } else {
      subscription().then(function (sub) {
        if (!sub || Notification.permission !== "granted") return show("ask");
        return known(sub.endpoint).then(function (yes) { show(yes ? "on" : "ask"); });
      }).catch(function () { show("ask"); });
    }
  }

  // ------------------------------------------------------------------ iOS
  var hint = document.getElementById("ios-hint");
  if (hint && isIos() && !standalone()) {
    var seen = false;
    try { seen = localStorage.getItem(HINT_KEY) === "1"; } catch (error) { seen = false; }
    if (!seen) {
      hint.hidden = false;
      try { localStorage.setItem(HINT_KEY, "1"); } catch (error) { /* private mode */ }
      hint.querySelector("[data-dismiss]").addEventListener("click", function () { hint.hidden = true; });
    }
  }

  // ------------------------------------------------------------------ the account page
  var devices = document.getElementById("devices");
  if (devices && canPush) {
    subscription().then(function (sub) {
      if (!sub) return;
      devices.querySelectorAll("li[data-endpoint]").forEach(function (li) {
        if (li.dataset.endpoint !== sub.endpoint) return;
        li.querySelector(".this-device").hidden = false;
        var form = li.querySelector("form");
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          sub.unsubscribe().catch(function () {}).then(function () { form.submit(); });
        });
      });
    }).catch(function () {});
  }
})();
