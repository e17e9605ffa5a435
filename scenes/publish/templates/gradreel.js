/* gradreel's article script: plain JavaScript, no framework, nothing from another host; it works
   from disk and over HTTP. The page reads in full without it.
   - "Play from" links seek the clip to their beat and play it.
   - A section's "lines 6–9 of the program" link marks those lines in the program listing.
   - A stepping figure (figure.stepper) steps through a backward walk's visits: Previous/Next,
     the arrow keys, or a step of its list. A step lights its node (data-lit), writes its
     arithmetic (data-at), shows the gradients and bucket fills of it and the steps before it
     (data-from; data-until: shown only before), by toggling the class "off". Playing the clip
     moves the step; choosing a step seeks the clip to it.
   - Where the page plays the portrait clip (its <source media> matched: a phone held upright),
     the clip shows that clip's poster, not the 16:9 one letterboxed in its upright box. */
(function () {
  "use strict";
  var video = document.getElementById("clip");

  function each(list, fn) { for (var i = 0; i < list.length; i++) fn(list[i], i); }
  function num(el, name) { return parseFloat(el.getAttribute(name)); }

  function play(at) {
    if (!video) return;
    video.currentTime = at;
    var playing = video.play();
    if (playing && playing.catch) playing.catch(function () {});
  }

  function uprightPoster() {
    var upright = video.querySelector("source[media]"), poster = video.getAttribute("data-portrait-poster");
    if (upright && poster && video.currentSrc === upright.src) video.poster = poster;
  }
  if (video) {
    uprightPoster();  // the source may be chosen before this deferred script runs
    video.addEventListener("loadstart", uprightPoster);
  }

  each(document.querySelectorAll("a.play-from"), function (link) {
    link.addEventListener("click", function (event) {
      if (!video) return;
      event.preventDefault();
      video.scrollIntoView({block: "start"});
      play(num(link, "data-start"));
    });
  });

  function markLines(range) {
    each(document.querySelectorAll(".line.marked"), function (el) { el.classList.remove("marked"); });
    var parts = (range || "").split("-"), a = parseInt(parts[0], 10), b = parseInt(parts[1], 10);
    for (var n = a; n <= b; n++) {
      var line = document.getElementById("L-" + n);
      if (line) line.classList.add("marked");
    }
  }
  each(document.querySelectorAll("a.lines"), function (link) {
    link.addEventListener("click", function () { markLines(link.getAttribute("data-lines")); });
  });

  function Stepper(fig) {
    this.fig = fig;
    this.buttons = fig.querySelectorAll("button.step");
    this.steps = [];
    var self = this;
    each(this.buttons, function (b) { self.steps.push(parseInt(b.getAttribute("data-step"), 10)); });
    this.now = fig.querySelector(".step-now");
    this.count = fig.querySelector(".step-count");
    this.at = 0;
    fig.querySelector(".step-controls").hidden = false;
    fig.querySelector("button.prev").addEventListener("click", function () { self.go(self.at - 1, true); });
    fig.querySelector("button.next").addEventListener("click", function () { self.go(self.at + 1, true); });
    each(this.buttons, function (b) {
      b.addEventListener("click", function () {
        var k = self.steps.indexOf(parseInt(b.getAttribute("data-step"), 10));
        self.go(k, true);
        if (video) video.currentTime = num(b, "data-start");
      });
    });
    fig.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === "ArrowDown") { self.go(self.at + 1, true); event.preventDefault(); }
      else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { self.go(self.at - 1, true); event.preventDefault(); }
    });
    this.go(0, false);
  }

  Stepper.prototype.go = function (k, say) {
    k = Math.max(0, Math.min(this.steps.length - 1, k));
    this.at = k;
    var step = this.steps[k];
    each(this.fig.querySelectorAll("[data-from]"), function (el) { el.classList.toggle("off", num(el, "data-from") > step); });
    each(this.fig.querySelectorAll("[data-until]"), function (el) { el.classList.toggle("off", num(el, "data-until") <= step); });
    each(this.fig.querySelectorAll("[data-lit]"), function (el) { el.classList.toggle("off", num(el, "data-lit") !== step); });
    each(this.fig.querySelectorAll("[data-at]"), function (el) { el.classList.toggle("off", num(el, "data-at") !== step); });
    each(this.buttons, function (b, j) {
      if (j === k) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    this.fig.querySelector("button.prev").disabled = k === 0;
    this.fig.querySelector("button.next").disabled = k === this.steps.length - 1;
    this.count.textContent = "Step " + (k + 1) + " of " + this.steps.length;
    this.fig.setAttribute("data-step", String(step));
    // a step the reader chose is said; one the playing clip moved to clears the line, so it never
    // names a step the figure has left
    this.now.textContent = say ? "Step " + (k + 1) + " of " + this.steps.length + ": " + this.buttons[k].textContent : "";
  };

  Stepper.prototype.follow = function (t) {
    var k = -1;
    for (var j = 0; j < this.buttons.length; j++) if (num(this.buttons[j], "data-start") <= t + 1e-3) k = j;
    if (k >= 0 && k !== this.at) this.go(k, false);
  };

  var steppers = [];
  each(document.querySelectorAll("figure.stepper"), function (fig) { steppers.push(new Stepper(fig)); });
  if (video && steppers.length) {
    video.addEventListener("timeupdate", function () {
      each(steppers, function (s) { s.follow(video.currentTime); });
    });
  }
  if (location.hash) {
    var target = document.querySelector('a.lines[href="' + location.hash + '"]');
    if (target) markLines(target.getAttribute("data-lines"));
  }
})();
