// The site's small behaviours, wired through data attributes (a strict CSP allows no on*= handler
// and no inline <script>): loaded with defer from templates/base.html.
(function () {
  "use strict";
  function init() {
    // <select data-submit-on-change [data-disable-on-change="selector"]>: submit its form on change,
    // first disabling the form's fields that match the selector (they are not to be sent).
    document.querySelectorAll("[data-submit-on-change]").forEach(function (el) {
      el.addEventListener("change", function () {
        var form = el.form;
        if (!form) { return; }
        if (el.dataset.disableOnChange) {
          form.querySelectorAll(el.dataset.disableOnChange).forEach(function (i) { i.disabled = true; });
        }
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
    });
    // <form data-action-template="/path/{field}/{other}/">: the action is built from the fields' values.
    document.querySelectorAll("form[data-action-template]").forEach(function (form) {
      form.addEventListener("submit", function () {
        form.action = form.dataset.actionTemplate.replace(/\{([a-z_]+)\}/g, function (_, name) {
          var field = form.elements[name];
          return field ? encodeURIComponent(field.value) : "";
        });
      });
    });
    // <input data-select-on-click>: a click selects the whole value (a link to copy).
    document.querySelectorAll("[data-select-on-click]").forEach(function (el) {
      el.addEventListener("click", function () { el.select(); });
    });
    // Public pages on a phone (static/css/app.css, body.public): a table's rows stack, so each cell
    // carries its column's heading in data-label for the CSS to show beside the value.
    document.querySelectorAll("body.public table.data").forEach(function (table) {
      var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent.trim(); });
      if (!heads.length) { return; }
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        Array.prototype.forEach.call(tr.children, function (td, i) {
          if (heads[i] && !td.hasAttribute("colspan")) { td.setAttribute("data-label", heads[i]); }
        });
      });
    });
    // A staff card whose table is wider than the window scrolls inside itself (static/css/app.css):
    // it takes the keyboard focus, so arrow keys scroll it, and is named by its heading.
    document.querySelectorAll(".content .card").forEach(function (card) {
      if (card.scrollWidth <= card.clientWidth + 1 || card.hasAttribute("tabindex")) { return; }
      card.setAttribute("tabindex", "0");
      card.setAttribute("role", "region");
      var heading = card.querySelector("h2, h3");
      card.setAttribute("aria-label", heading ? heading.textContent.trim() : document.title);
    });
    // <a data-carry-fields href="/other/?x=1">: follow the link carrying what was typed in its form's
    // fields (not the CSRF token, not files): "Simular antes" opens the what-if page with the figures.
    document.querySelectorAll("a[data-carry-fields]").forEach(function (link) {
      link.addEventListener("click", function (ev) {
        var form = link.closest("form");
        if (!form) { return; }
        var url = new URL(link.href, window.location.href);
        Array.prototype.forEach.call(form.elements, function (field) {
          if (!field.name || field.disabled || field.type === "file" || field.name === "csrfmiddlewaretoken") { return; }
          if ((field.type === "checkbox" || field.type === "radio") && !field.checked) { return; }
          url.searchParams.set(field.name, field.value);
        });
        ev.preventDefault();
        window.location.href = url.toString();
      });
    });
    // <button data-print>: print the page.
    document.querySelectorAll("[data-print]").forEach(function (el) {
      el.addEventListener("click", function () { window.print(); });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();

// TID-2 live preview (templates/improvement/tid_detail.html: form.live-preview).
(function () {
  // TID-2 live preview: the formula typed is evaluated on the server over the member parcels.
  document.querySelectorAll("form.live-preview").forEach(function (form) {
    var target = document.getElementById(form.dataset.target);
    var url = form.dataset.previewUrl;
    var timer = null, seq = 0;
    var placeholder = target.innerHTML;
    function refresh() {
      var formula = (form.querySelector("[name=formula]") || {}).value || "";
      var mine = ++seq;
      if (!formula.trim()) { target.innerHTML = placeholder; target.removeAttribute("aria-busy"); return; }
      var data = new FormData();
      data.append("formula", formula);
      data.append("expected_amount", (form.querySelector("[name=expected_amount]") || {}).value || "");
      var token = form.querySelector("[name=csrfmiddlewaretoken]").value;
      target.setAttribute("aria-busy", "true");
      fetch(url, {method: "POST", body: data, headers: {"X-CSRFToken": token}, credentials: "same-origin"})
        .then(function (r) { return r.text(); })
        .then(function (html) { if (mine === seq) { target.innerHTML = html; target.removeAttribute("aria-busy"); } });
    }
    form.addEventListener("input", function (ev) {
      if (!ev.target.name || ["formula", "expected_amount"].indexOf(ev.target.name) < 0) { return; }
      clearTimeout(timer);
      timer = setTimeout(refresh, 350);
    });
    if ((form.querySelector("[name=formula]") || {}).value) { refresh(); }
  });
})();
