/* gradreel's article script: a beat's "Play from" link seeks the clip on the page to the beat's
   start and plays it, instead of opening the video file. Plain JavaScript, loaded with defer from
   the article's own folder (the page's policy runs no inline script). */
(function () {
  "use strict";
  var video = document.getElementById("clip");
  if (!video) return;
  var links = document.querySelectorAll("a.play-from");
  for (var i = 0; i < links.length; i++) {
    links[i].addEventListener("click", function (event) {
      event.preventDefault();
      video.currentTime = parseFloat(this.getAttribute("data-start"));
      video.scrollIntoView({block: "start"});
      var playing = video.play();
      if (playing && playing.catch) playing.catch(function () {});
    });
  }
})();
