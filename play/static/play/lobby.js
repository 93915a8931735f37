/* The lobby without reloads (docs/table.md). Without this script the lobby is the
 * same page, only still until it is loaded again.
 *
 * - The lists (your move, your games, open games) are fetched again every few
 *   seconds (?partial=1) and swapped in when they changed.
 * - Each create form shows only what fits the chosen number of players: the
 *   "who plays seat n" choices of the seats that exist, and "who starts" among them.
 */
(function () {
  "use strict";
  var lists = document.getElementById("lists");
  if (lists && lists.dataset.live) {
    var url = lists.dataset.live;
    var last = lists.innerHTML;
    var every = 4000;
    var look = function () {
      if (document.hidden) { setTimeout(look, every); return; }
      fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
        .then(function (html) {
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#lists");
          var now = document.getElementById("lists");
          if (fresh && now && fresh.innerHTML !== last) {
            last = fresh.innerHTML;
            now.replaceWith(fresh);
          }
        })
        .catch(function () {})
        .then(function () { setTimeout(look, every); });
    };
    setTimeout(look, every);
  }

  function follow(form) {
    var seats = form.querySelector("select[name=seats]");
    if (!seats) return;
    var n = parseInt(seats.value, 10);
    form.querySelectorAll("[data-bot-seat]").forEach(function (row) {
      var seat = parseInt(row.dataset.botSeat, 10);
      row.hidden = seat >= n;
    });
    var start = form.querySelector("[data-start-seat] select");
    if (start) {
      Array.prototype.forEach.call(start.options, function (o) {
        var hide = o.value !== "" && parseInt(o.value, 10) >= n;
        o.hidden = hide; o.disabled = hide;
        if (hide && o.selected) start.value = "";
      });
    }
  }
  document.querySelectorAll("form.create").forEach(function (form) {
    follow(form);
    var seats = form.querySelector("select[name=seats]");
    if (seats) seats.addEventListener("change", function () { follow(form); });
  });
})();
