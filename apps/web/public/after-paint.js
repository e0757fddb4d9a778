// Loads the console's bundle once the prerendered sign-in page (decision 034) is on screen: `/` and
// `/signin` paint from their HTML and stylesheet alone, so the bundle's scripts are asked for after
// that first frame instead of competing with it. A file because the CSP forbids inline scripts.
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  if (!entry) return;
  var started = false;
  function boot() {
    if (started) return;
    started = true;
    import(entry);
  }
  // After the next frame; a tab opened in the background (no frames) boots on a timer instead.
  requestAnimationFrame(function () {
    setTimeout(boot, 0);
  });
  setTimeout(boot, 200);
})();
