// Progress of a background job (roll generation, certification, finalization; a large import).
// Markup: an element with data-job-progress, data-url (the job's JSON state) and data-running="1"
// while the job is queued or running; inside it .progress-track > .progress-bar[data-percent], and
// optionally .count, .status and [data-job-message]. The bar's width is set here (a strict CSP allows no style=
// attribute); the page polls the state and reloads once the job has finished, so the server renders
// the result (the roll's link, the import's counts, the error).
(function () {
  "use strict";
  function setBar(box, percent) {
    var bar = box.querySelector(".progress-bar");
    if (bar) { bar.style.width = percent + "%"; }
    var track = box.querySelector(".progress-track");
    if (track && track.hasAttribute("aria-valuenow")) { track.setAttribute("aria-valuenow", percent); }
  }
  function text(box, selector, value) {
    var el = box.querySelector(selector);
    if (el && value !== undefined && value !== null) { el.textContent = value; }
  }
  function finished(s) {
    return s.finished === true || s.status === "DONE" || s.status === "FAILED";
  }
  function poll(box) {
    var interval = parseInt(box.dataset.interval || "1000", 10);
    function tick() {
      fetch(box.dataset.url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
        .then(function (s) {
          setBar(box, s.percent);
          text(box, ".count", s.done + " / " + s.total);
          if (s.status_label) { text(box, ".status", s.status_label); }
          text(box, "[data-job-message]", s.message || "");
          if (finished(s)) { window.location.reload(); return; }
          setTimeout(tick, interval);
        })
        // A failed poll (network, a restart) is tried again later rather than leaving the page frozen.
        .catch(function () { setTimeout(tick, interval * 3); });
    }
    setTimeout(tick, interval / 2);
  }
  function init() {
    document.querySelectorAll("[data-job-progress]").forEach(function (box) {
      var bar = box.querySelector(".progress-bar");
      if (bar) { bar.style.width = (bar.dataset.percent || "0") + "%"; }
      if (box.dataset.running) { poll(box); }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
