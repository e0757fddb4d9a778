// Runs before the console's bundle so the first paint already has the stored theme and language.
(function () {
  try {
    var root = document.documentElement;
    var dark = localStorage.getItem('air.theme');
    if (dark === null) {
      var user = JSON.parse(localStorage.getItem('air.user') || 'null');
      if (user && user.dark_mode) dark = 'dark';
    }
    if (dark === 'dark') root.classList.add('dark');
    var locale = localStorage.getItem('air.locale');
    root.lang = locale === 'es' ? 'es' : 'en';
  } catch {
    // Storage can be disabled; the light theme and English are the defaults.
  }
})();
