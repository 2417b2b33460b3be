// The viewer's keys and slider. Every page works without this file: it only follows the
// links the page already has (first, previous, next, last, smazzata up and down).
(function () {
  "use strict";
  function follow(id) {
    var link = document.getElementById(id);
    if (link && link.href) { window.location.href = link.href; }
  }
  var keys = {
    ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
    ArrowUp: "prev-smazzata", ArrowDown: "next-smazzata"
  };
  function toggleHelp() {
    var help = document.getElementById("help");
    if (help) { help.hidden = !help.hidden; }
  }
  function turn() {
    var board = document.getElementById("board");
    if (!board) { return; }
    board.classList.toggle("turned");
    try { sessionStorage.setItem("verbale-turned", board.classList.contains("turned") ? "1" : ""); } catch (e) { /* private mode */ }
  }
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) {
      if (!(target.type === "range" && keys[event.key] && event.key.indexOf("Arrow") !== 0)) { return; }
    }
    if (keys[event.key]) { event.preventDefault(); follow(keys[event.key]); }
    else if (event.key === "f") { turn(); }
    else if (event.key === "?") { toggleHelp(); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var slider = document.getElementById("slider");
    if (slider && slider.form) {
      slider.addEventListener("change", function () { slider.form.submit(); });
    }
    var turnButton = document.getElementById("turn");
    if (turnButton) { turnButton.addEventListener("click", turn); }
    var helpButton = document.getElementById("help-button");
    if (helpButton) { helpButton.addEventListener("click", toggleHelp); }
    var jsOnly = document.querySelectorAll(".js-only");
    for (var i = 0; i < jsOnly.length; i++) { jsOnly[i].classList.add("js-on"); }
    try {
      if (sessionStorage.getItem("verbale-turned")) {
        var board = document.getElementById("board");
        if (board) { board.classList.add("turned"); }
      }
    } catch (e) { /* private mode */ }
  });
}());
// The timeline keeps the current step in sight.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var current = document.querySelector(".timeline li.current");
  if (current && current.parentElement) {
    var list = current.parentElement;
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
});
