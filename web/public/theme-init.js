// Apply the stored theme before first paint (spec §1: default dark, item "theme"). A classic,
// render-blocking script of its own (not inline): the Content-Security-Policy allows scripts
// from this origin only.
/* global document */
try {
  var theme = localStorage.getItem("theme") === "light" ? "light" : "dark";
  document.documentElement.classList.toggle("dark", theme === "dark");
  document.documentElement.style.colorScheme = theme;
} catch {
  // Storage blocked: keep the default dark theme.
}
