// The page's words in its reader's language (docs/table.md, "Languages").
// The server puts the page's gettext catalog in window.I18N ({lang, messages}) before this
// script; _(msgid, params) gives a message in that language with its {name} placeholders
// filled, and the page's static texts (text nodes, title/alt/placeholder/aria-label) are
// translated once, here, so the HTML stays plain English.
(function () {
  const data = window.I18N || { lang: "en", messages: {} };
  const messages = data.messages || {};
  window.I18N_LANG = data.lang || "en";

  window._ = function (msgid, params) {
    let text = Object.prototype.hasOwnProperty.call(messages, msgid) ? messages[msgid] : msgid;
    if (params) {
      text = text.replace(/\{(\w+)\}/g, (whole, name) =>
        Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
    }
    return text;
  };

  // The language to pass on: links and websockets of this page carry it (?lang=).
  window.withLang = function (url) {
    if (window.I18N_LANG === "en" && !new URLSearchParams(location.search).has("lang")) return url;
    const hash = url.indexOf("#");
    const [path, fragment] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
    return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(window.I18N_LANG) + fragment;
  };

  function translateTree(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style")) continue;
      const text = node.nodeValue.replace(/\s+/g, " ").trim();
      if (text && Object.prototype.hasOwnProperty.call(messages, text)) {
        const text2 = messages[text];
        // (a translation that starts with punctuation closes up to what comes before it)
        const lead = /^[).,:;!?]/.test(text2) ? "" : node.nodeValue.match(/^\s*/)[0];
        const tail = node.nodeValue.match(/\s*$/)[0];
        node.nodeValue = lead + text2 + tail;
      }
    }
    for (const el of root.querySelectorAll("[title], [alt], [placeholder], [aria-label]")) {
      for (const name of ["title", "alt", "placeholder", "aria-label"]) {
        const value = el.getAttribute(name);
        const key = value && value.replace(/\s+/g, " ").trim();
        if (key && Object.prototype.hasOwnProperty.call(messages, key)) el.setAttribute(name, messages[key]);
      }
    }
  }
  window.translatePage = translateTree;
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => translateTree(document.documentElement));
  } else {
    translateTree(document.documentElement);
  }
})();
