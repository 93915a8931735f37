// Stepping without a full page load. Without this script every control is a
// plain link or form and works the same, one page load per step. An analysis
// under way updates its progress by itself.
(function () {
  "use strict";
  var cache = new Map();

  function fetchPage(url) {
    if (!cache.has(url)) {
      cache.set(url, fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).catch(function (e) { cache.delete(url); throw e; }));
    }
    return cache.get(url);
  }

  function root() { return document.getElementById("replay"); }

  function absolute(href) { return new URL(href, window.location.href).toString(); }

  function go(href, push) {
    var url = absolute(href);
    var el = root();
    if (el) el.classList.add("loading");
    return fetchPage(url).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("replay");
      if (!fresh) { window.location.href = url; return; }
      root().replaceWith(fresh);
      document.title = doc.title;
      if (push) history.pushState({ replay: true }, "", url);
      prefetch();
    }).catch(function () { window.location.href = url; });
  }

  function prefetch() {
    var el = root();
    if (!el) return;
    ["nextUrl", "prevUrl"].forEach(function (k) {
      if (el.dataset[k]) fetchPage(absolute(el.dataset[k]));
    });
  }

  document.addEventListener("click", function (ev) {
    var a = ev.target.closest("a[data-nav]");
    if (!a || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    go(a.getAttribute("href"), true);
  });

  document.addEventListener("input", function (ev) {
    if (ev.target.id === "step-slider") {
      var out = ev.target.form.querySelector("output");
      if (out) out.textContent = ev.target.value;
    }
  });

  document.addEventListener("change", function (ev) {
    if (ev.target.id !== "step-slider") return;
    var form = ev.target.form;
    var params = new URLSearchParams(new FormData(form));
    go("?" + params.toString(), true);
  });

  document.addEventListener("submit", function (ev) {
    if (!ev.target.classList.contains("slider")) return;
    ev.preventDefault();
    go("?" + new URLSearchParams(new FormData(ev.target)).toString(), true);
  });

  document.addEventListener("keydown", function (ev) {
    var el = root();
    if (!el || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    var key = { ArrowRight: "nextUrl", ArrowLeft: "prevUrl", Home: "firstUrl", End: "lastUrl" }[ev.key];
    if (!key) return;
    ev.preventDefault();
    go(el.dataset[key], true);
  });

  // An analysis under way shows its progress by itself: the section is fetched again
  // every 2 s until it is done (without this script the page says to reload).
  function followAnalysis() {
    if (!document.querySelector("[data-analysing]")) return;
    setTimeout(function () {
      var url = window.location.href;
      fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          cache.delete(absolute(url));
          var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".analysis");
          var old = document.querySelector(".analysis");
          if (fresh && old) old.replaceWith(fresh);
        })
        .catch(function () {})
        .then(followAnalysis);
    }, 2000);
  }

  window.addEventListener("popstate", function () { go(window.location.href, false); });
  prefetch();
  followAnalysis();
})();
