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
    // Language: this device's choice, else the user's saved one, else the browser's (lib/i18n.ts).
    var saved = JSON.parse(localStorage.getItem('air.user') || 'null');
    var wishes = [localStorage.getItem('air.locale'), saved && saved.locale].concat(
      navigator.languages || [navigator.language],
    );
    var locale = 'en';
    for (var i = 0; i < wishes.length; i++) {
      var lang = String(wishes[i] || '')
        .slice(0, 2)
        .toLowerCase();
      if (lang === 'en' || lang === 'es') {
        locale = lang;
        break;
      }
    }
    root.lang = locale;
  } catch {
    // Storage can be disabled; the light theme and English are the defaults.
  }
})();
