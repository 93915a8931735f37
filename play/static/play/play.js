/* The table without reloads (docs/table.md). Without this script every control is a
 * plain link or form and works the same way, only with a page load each time.
 *
 * - A click on an action button POSTs its data-action body to the REST API with the
 *   version the page shows (expected_version), an Idempotency-Key fixed for that
 *   button on that page (a double click sends one action), the session cookie and
 *   a CSRF header. Then the table fragment is fetched again and swapped in.
 * - A refusal is shown as the API's detail sentence above the table, then the
 *   table is refreshed. A version conflict (another player moved first) is told in
 *   the table's words: the redraw asks for what happened since (?since=<version>).
 * - A refused click whose version another player's move overtook is sent again
 *   at the new version when the redrawn table still offers the same button, with
 *   the same words (the same action means the same thing); otherwise the redraw
 *   says, in the table's words, what came first.
 * - A click (a card or another button) that meets an action or a pick in flight
 *   is never dropped: it waits in line and is replayed on the redrawn table --
 *   the same card (its selection as it is now), the same button -- or, when that
 *   is gone, the player is told. The same button again is a double click: one
 *   action. Buttons in flight are only marked aria-disabled, so a click on them
 *   still reaches this script.
 * - A click on a card changes the selection: the fragment for ?sel=... is fetched.
 * - The event feed's long poll (wait=25) brings other players' moves.
 * - The deadline counts down every second.
 * - "Close the reveal" hides the round's reveal at once and tells the server.
 */
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var notice = document.getElementById("notice");
  var gameId = root.dataset.game;
  var pollGen = 0;

  function table() { return document.getElementById("table"); }
  function version() { return parseInt(table().dataset.version, 10); }

  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function sayHtml(html) {  // the server's own escaped sentence (#raced)
    notice.innerHTML = "";
    var p = document.createElement("p");
    p.className = "notice error";
    p.innerHTML = html;
    notice.appendChild(p);
  }

  function say(text) {
    notice.innerHTML = "";
    if (!text) return;
    var p = document.createElement("p");
    p.className = "notice error";
    p.textContent = text;
    notice.appendChild(p);
  }

  // The selection the player asked for last, and the newest redraw: a redraw that
  // answers after a newer one was asked for (the long poll's and a click's at once)
  // is dropped, so an older selection never comes back.
  var wanted = root.dataset.sel || "";
  var drawn = 0;
  var newest = Promise.resolve();  // the newest redraw: what a dropped one waits for

  function refresh(sel, since) {
    if (sel === undefined) sel = wanted; else wanted = sel;
    var mine = ++drawn;
    var url = "/play/" + gameId + "/?partial=1" + (sel ? "&sel=" + encodeURIComponent(sel) : "");
    if (since !== undefined) url += "&since=" + since;  // a refused click: what others did
    // a private game's invite holder sees it only with the invite (docs/table.md)
    if (table().dataset.invite) url += "&invite=" + encodeURIComponent(table().dataset.invite);
    var drawing = fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        if (mine !== drawn) return newest.catch(function () {});
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#table");
        if (!fresh) return;
        var old = table();
        var focus = focusKey(old);
        var seen = lastSeq(old);
        old.replaceWith(fresh);
        announce(fresh, seen);
        if (focus) refocus(fresh, focus);
        // a redraw while an action is in flight keeps its buttons off: a click on
        // them waits in line for the answer instead of being lost
        if (busy) disable();
        var raced = fresh.querySelector("#raced");
        if (raced) sayHtml(raced.innerHTML);
        wanted = fresh.dataset.sel || "";
        var query = [];
        if (fresh.dataset.sel) query.push("sel=" + fresh.dataset.sel);
        if (fresh.dataset.invite) query.push("invite=" + encodeURIComponent(fresh.dataset.invite));
        var clean = "/play/" + gameId + "/" + (query.length ? "?" + query.join("&") : "");
        if (location.pathname + location.search !== clean) history.replaceState(null, "", clean);
        tick();
        showCopy();
      });
    newest = drawing;
    return drawing;
  }

  // Keyboard and screen reader: the focus stays on the same card or button across a
  // redraw (else it goes to the first action, else the table's heading), and the
  // sentences of "Last moves" newer than the replaced table are said politely.
  function focusKey(el) {
    var a = document.activeElement;
    if (!a || !el.contains(a)) return null;
    if (a.dataset.ref) return "[data-ref='" + a.dataset.ref + "']";
    if (a.dataset.action) return "button[data-action='" + a.dataset.action + "']";
    return "#table .actions button";
  }
  function refocus(el, key) {
    var target = el.querySelector(key) || el.querySelector(".actions button, a.pick") ||
      el.querySelector("h1");
    if (!target) return;
    if (!target.matches("a, button")) target.setAttribute("tabindex", "-1");
    target.focus();
  }
  function lastSeq(el) {
    var first = el.querySelector(".log li[data-seq]");
    return first ? parseInt(first.dataset.seq, 10) : 0;
  }
  function spoken(li) {  // the suits' signs are images: said by their names
    var copy = li.cloneNode(true);
    copy.querySelectorAll("svg[aria-label]").forEach(function (s) {
      s.replaceWith(" " + s.getAttribute("aria-label"));
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  function announce(el, seen) {
    var said = [];
    el.querySelectorAll(".log li[data-seq]").forEach(function (li) {
      if (parseInt(li.dataset.seq, 10) > seen) said.unshift(spoken(li));
    });
    if (!said.length || !seen) return;
    var region = document.getElementById("announce");
    var p = document.createElement("p");
    p.textContent = said.join(" ");
    region.appendChild(p);
    while (region.childNodes.length > 8) region.removeChild(region.firstChild);
  }

  // Buttons in flight look disabled but are not: a disabled button swallows the
  // click in the browser, and a click must never be dropped (it waits in line).
  function disable() {
    table().querySelectorAll("button[data-action]").forEach(function (b) {
      b.setAttribute("aria-disabled", "true");
    });
  }
  function enable() {
    table().querySelectorAll("button[data-action]").forEach(function (b) {
      b.removeAttribute("aria-disabled");
    });
  }

  // A button is the same on a redrawn table when it sends the same action and says
  // the same words (a "take the 7" that now takes a king is another choice).
  function words(b) {
    return (b.getAttribute("aria-label") || b.textContent || "").replace(/\s+/g, " ").trim();
  }
  function sameButton(action, said) {
    return Array.prototype.filter.call(
      table().querySelectorAll("button[data-action]"),
      function (b) { return b.dataset.action === action && words(b) === said; })[0];
  }
  function sameCard(ref) {
    return Array.prototype.filter.call(
      table().querySelectorAll("a[data-sel][data-ref]"),
      function (a) { return a.dataset.ref === ref; })[0];
  }

  // Clicks that met an action or a pick in flight, replayed in order on the redrawn
  // table once nothing is in flight: the same button, the same card (its selection
  // as the table has it now), or "clear the selection". What is gone is told.
  var busy = false;     // an action in flight
  var picking = false;  // a click's selection being drawn
  var waiting = [];
  function later(item) {
    var last = waiting[waiting.length - 1];
    if (last && last.action !== undefined && last.action === item.action) return;  // a double click
    if (waiting.length < 8) waiting.push(item);
  }
  function gone() {
    if (!notice.textContent) say(gettext("The table changed before your click could be sent; nothing was done. Choose again."));
  }
  function drain() {
    while (waiting.length && !busy && !picking) {
      var item = waiting.shift();
      if (item.action !== undefined) {
        var again = sameButton(item.action, item.words);
        if (again) send(again); else gone();
      } else if (item.ref !== undefined) {
        var card = sameCard(item.ref);
        if (card) pick(card.dataset.sel, card.href); else gone();
      } else {
        pick("", "/play/" + gameId + "/");
      }
    }
  }

  // a card clicked (or the selection cleared): the table for that selection
  function pick(sel, href) {
    picking = true;
    return refresh(sel)
      .catch(function () { location.href = href; })
      .then(function () { picking = false; drain(); });
  }

  var sending = null;  // the data-action in flight
  function send(button, retried) {
    if (busy || picking) {
      // the same action again is a double click (sent once); another one waits
      if (!(busy && button.dataset.action === sending)) {
        later({ action: button.dataset.action, words: words(button) });
      }
      return;
    }
    var action;
    try { action = JSON.parse(button.dataset.action); } catch (e) { return; }
    busy = true;
    sending = button.dataset.action;
    var said = words(button);
    var sel = table().dataset.sel || "";
    var since;
    var form = button.closest("form");
    var keyInput = form && form.querySelector("input[name=key]");
    var url, body, then = null;
    if (action.type === "join") {
      url = "/api/games/" + gameId + "/join/";
      body = JSON.stringify(action.invite ? { invite: action.invite } : {});
    } else if (action.type === "come_back") {
      url = "/api/games/" + gameId + "/back/"; body = "{}";
    } else if (action.type === "rematch") {
      // the new game's table: started here, or joined with its invite
      url = "/api/games/" + gameId + "/rematch/"; body = "{}";
      then = function (data) {
        var go = function () { location.href = "/play/" + data.id + "/"; };
        if (data.you !== null && data.you !== undefined) return go();
        return fetch("/api/games/" + data.id + "/join/", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json" },
          body: JSON.stringify({ invite: data.invite })
        }).then(go, go);
      };
    } else {
      url = "/api/games/" + gameId + "/actions/";
      action.expected_version = since = version();
      body = JSON.stringify(action);
    }
    var headers = { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json",
                    "Accept-Language": document.documentElement.lang };
    if (keyInput) headers["Idempotency-Key"] = keyInput.value;
    disable();
    var raced = false, resend = null;
    fetch(url, { method: "POST", credentials: "same-origin", headers: headers, body: body })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (data) {
          if (r.ok && then) { say(""); return then(data); }
          if (r.ok) { say(""); return; }
          // another player moved first: the redraw says what they did, in words
          if (data.code === "version_conflict" && since !== undefined) { raced = true; return; }
          say(data.detail || interpolate(gettext("The server refused (%s)."), [r.status]));
        });
      })
      .catch(function () { say(gettext("The server could not be reached; try again.")); })
      .then(function () {
        if (!raced) return refresh("");
        // overtaken: the same choice, still offered with the same words, is sent again
        // at the new version (once); else the redraw tells what came first
        return refresh(sel).then(function () {
          resend = retried ? null : sameButton(sending, said) || null;
          if (!resend) return refresh("", since);
        });
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        sending = null;
        enable();
        if (resend) { say(""); send(resend, true); } else drain();
      });
  }

  // the round's reveal: closed at once, remembered by the server for the next redraw
  function closeReveal(button) {
    var form = button.closest("form");
    var panel = document.getElementById("reveal");
    if (panel) panel.remove();
    if (!form) return;
    fetch(form.action, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), "X-Requested-With": "fetch" },
      body: new FormData(form)
    }).catch(function () {});
  }

  // a private game's invite link: "Copy the link" (shown only with JavaScript)
  function showCopy() {
    document.querySelectorAll("#table button[data-copy]").forEach(function (b) { b.hidden = false; });
  }
  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    var status = document.getElementById("invite-copied");
    if (!field) return;
    var done = function () { if (status) status.textContent = gettext("The invite link is copied: paste it to your friends."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {  // plain http: the field selected, for Ctrl-C
      field.focus();
      field.select();
      if (status) status.textContent = gettext("The link is selected: copy it with Ctrl+C (or the menu).");
    }
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) return;
    var copier = t.closest("#table button[data-copy]");
    if (copier) { ev.preventDefault(); copy(copier); return; }
    var closer = t.closest("#table button[data-close-reveal]");
    if (closer) { ev.preventDefault(); closeReveal(closer); return; }
    var button = t.closest("#table button[data-action]");
    if (button) { ev.preventDefault(); send(button); return; }
    var link = t.closest("#table a[data-sel]");
    if (link) {
      ev.preventDefault();
      // a card while something is in flight: picked on the redrawn table
      if ((busy || picking) && link.dataset.ref) later({ ref: link.dataset.ref });
      else if (busy || picking) later({});
      else pick(link.dataset.sel, link.href);
    }
  });
  // a card is a link that acts as a button: Space picks it too; Escape puts every
  // picked card back
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && wanted) {
      ev.preventDefault();
      if (busy || picking) later({}); else pick("", "/play/" + gameId + "/");
      return;
    }
    if (ev.key !== " ") return;
    var link = ev.target instanceof Element && ev.target.closest("#table a[data-sel]");
    if (link) { ev.preventDefault(); link.click(); }
  });
  // a form submitted by the keyboard (Enter) goes the same way
  document.addEventListener("submit", function (ev) {
    var button = ev.target.querySelector && ev.target.querySelector("button[data-action]");
    if (button && ev.target.closest("#table")) { ev.preventDefault(); send(button); }
  });

  function poll() {
    var gen = ++pollGen;
    var status = table().dataset.status;
    if (status === "finished" && table().dataset.rematchWatch) {
      // a finished game has no more events: look now and then for a rematch offered
      setTimeout(function () {
        if (gen !== pollGen) return;
        (document.hidden ? Promise.resolve() : refresh()).catch(function () {}).then(poll);
      }, 5000);
      return;
    }
    if (status === "finished" || status === "aborted") return;
    if (!table().dataset.signedIn) {  // the feed needs an account: look again now and then
      setTimeout(function () { refresh().catch(function () {}).then(poll); }, 5000);
      return;
    }
    var seen = version();
    var pause = 50;
    fetch("/api/games/" + gameId + "/events/?after=" + seen + "&wait=25",
          { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (data) {
        if (gen !== pollGen || data.version <= version()) return;
        if (!busy) return refresh();
        pause = 250;  // the action's own redraw brings it: ask again a little later
      })
      .then(function () { if (gen === pollGen) setTimeout(poll, pause); },
            function () { if (gen === pollGen) setTimeout(poll, 3000); });
  }

  function fmt(seconds) {
    if (seconds < 60) return seconds + " s";
    var m = Math.floor(seconds / 60);
    if (m < 60) return m + " min " + (seconds % 60) + " s";
    var h = Math.floor(m / 60); m = m % 60;
    if (h < 48) return h + " h " + m + " min";
    var d = Math.floor(h / 24); h = h % 24;
    return interpolate(ngettext("%s day", "%s days", d), [d]) + " " + h + " h";
  }
  function tick() {
    table().querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = interpolate(gettext("%s left"), [fmt(left)]);
    });
  }
  setInterval(tick, 1000);
  tick();
  showCopy();
  poll();
})();
