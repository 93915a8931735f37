// The account page's notification settings: when the account has no timezone yet,
// fill the field with the browser's and save it once (play/notify_settings.py).
(function () {
  "use strict";
  var form = document.querySelector("form[data-timezone-form]");
  if (!form || !window.Intl || !window.fetch) return;
  var field = form.querySelector("[data-timezone]");
  if (!field || field.value) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  field.value = zone;
  var body = new FormData();
  body.append("timezone", zone);
  body.append("timezone_only", "1");
  body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
  fetch(form.action, { method: "POST", body: body, credentials: "same-origin" });
})();
