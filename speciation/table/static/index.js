// The new-game page: choose a ruleset, variants, mods, players, seats, language.
"use strict";

const $ = (id) => document.getElementById(id);
const _ = window._ || ((s, p) => s.replace(/\{(\w+)\}/g, (w, k) => (p && k in p ? p[k] : w)));
let catalogue = { rulesets: [], agents: ["human"] };

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function current() {
  return catalogue.rulesets.find((r) => r.name === $("ruleset").value);
}

function fillRuleset() {
  const r = current();
  if (!r) return;
  const variants = $("variants");
  variants.replaceChildren();
  for (const v of r.variants) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = v.name;
    box.name = "variant";
    label.append(box, " " + ((v.titles || {})[window.I18N_LANG] || v.title || v.name));
    label.title = v.name;
    variants.append(label);
  }
  if (!r.variants.length) variants.textContent = _("none");
  const mods = $("mods");
  mods.replaceChildren();
  for (const m of catalogue.mods || []) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = m;
    label.append(box, " " + m);
    mods.append(label);
  }
  if (!(catalogue.mods || []).length) mods.textContent = _("none");
  const lang = $("lang");
  lang.replaceChildren(option("", _("English (the rule files' own words)")));
  for (const l of r.langs) lang.append(option(l, l === "pl" ? "polski" : l));
  if (r.langs.includes(window.I18N_LANG)) lang.value = window.I18N_LANG;  // the page's language
  const players = $("players");
  players.min = r.min;
  players.max = r.max;
  players.value = Math.min(Math.max(Number(players.value) || r.min, r.min), r.max);
  fillSeats();
}

function fillSeats() {
  const seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.replaceChildren();
  const count = Number($("players").value) || 2;
  for (let i = 0; i < count; i++) {
    const label = document.createElement("label");
    label.textContent = _("Player {n}", { n: i + 1 }) + " ";
    const select = document.createElement("select");
    select.name = `seat${i}`;
    select.dataset.seat = i;
    for (const a of catalogue.agents) select.append(option(a, a === "human" ? _("a person") : _("agent: {name}", { name: _(a) })));
    select.value = before[i] || (i === 0 ? "human" : catalogue.agents.find((a) => a !== "human") || "human");
    label.append(select);
    seats.append(label);
  }
}

async function post(url, body, isText) {
  const response = await fetch(url, {
    method: "POST",
    // the server's errors in this page's language (which ?lang= may have chosen, not the browser)
    headers: { "Content-Type": "application/json", "Accept-Language": window.I18N_LANG || "en" },
    body: isText ? body : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: _("the server answered {status}", { status: response.status }) }));
  if (!response.ok || data.error) throw new Error(data.error || _("the server answered {status}", { status: response.status }));
  return data;
}

// Mods brought as files (uploads.py on the server): read here, checked against the ruleset
// chosen (POST /api/mods: what each brings, or every error positioned in the file's own
// name), and sent with the new game, which the server keeps with them (by content).
let uploads = [];

async function checkUploads() {
  const list = $("mod-uploads");
  list.replaceChildren();
  $("mod-error").textContent = "";
  uploads = [];
  for (const file of $("mod-files").files) uploads.push({ name: file.name, text: await file.text() });
  if (!uploads.length) return;
  try {
    const data = await post("/api/mods", { ruleset: $("ruleset").value, variants: chosen("#variants"), uploads });
    for (const mod of data.mods) {
      const item = document.createElement("li");
      const brings = mod.brings.length ? " — " + _("brings {what}", { what: mod.brings.join(", ") }) : "";
      item.textContent = `${mod.title || mod.name} (${mod.name})${brings}`;
      list.append(item);
    }
    document.body.dataset.mods = "checked";
  } catch (error) {
    $("mod-error").textContent = error.message;
    document.body.dataset.mods = "refused";
  }
}

function chosen(box) {
  return [...document.querySelectorAll(`${box} input:checked`)].map((b) => b.value);
}

async function start(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  const body = {
    ruleset: $("ruleset").value,
    variants: [...document.querySelectorAll("#variants input:checked")].map((b) => b.value),
    mods: [...document.querySelectorAll("#mods input:checked")].map((b) => b.value),
    players: Number($("players").value),
    seats: [...document.querySelectorAll("#seats select")].map((s) => s.value),
    lang: $("lang").value || null,
    seed: $("seed").value === "" ? null : Number($("seed").value),
    hotseat: $("hotseat").checked && !$("listed").checked,
    listed: $("listed").checked,
    uploads,
  };
  $("start").disabled = true;
  try {
    const data = await post("/api/games", body);
    if (body.listed && data.invites.length) {  // a lobby game: the creator takes the first person's seat
      Lobby.remember(data.game, data.url.split("#t=")[1]);
      location.href = data.invites[0].url;
      return;
    }
    opened(data);
  } catch (error) {
    $("new-error").textContent = error.message;
    $("start").disabled = false;
  }
}

// A game was made: keep its invite links for the creator's page; go to the table, or show
// the links first when people play on their own devices.
function opened(data) {
  Lobby.remember(data.game, data.url.split("#t=")[1]);
  const links = {};
  for (const invite of data.invites) links[invite.seat] = location.origin + invite.url;
  if (!data.hotseat) sessionStorage.setItem(`speciation-links-${data.game}`, JSON.stringify(links));  // hot-seat: none on the shared screen
  if (data.hotseat || data.invites.length <= 1) {
    location.href = window.withLang ? window.withLang(data.url) : data.url;
    return;
  }
  const list = $("link-list");
  list.replaceChildren();
  const rows = [[_("You (the game's creator)"), data.url], [_("Spectators"), data.spectator],
                ...data.invites.map((i) => [i.name, i.url])];
  for (const [name, url] of rows) {
    const label = document.createElement("label");
    label.className = "invite";
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = location.origin + url;
    input.addEventListener("focus", () => input.select());
    label.append(name + " ", input);
    list.append(label);
  }
  $("open-table").href = window.withLang ? window.withLang(data.url) : data.url;
  $("new-form").hidden = true;
  $("links").hidden = false;
  document.body.dataset.links = "1";
}

async function load(url) {
  $("load-error").textContent = "";
  const file = $("save-file").files[0];
  if (!file) {
    $("load-error").textContent = _("choose a saved game file first");
    return;
  }
  try {
    const data = await post(url, await file.text(), true);
    if (data.invites) opened(data);
    else location.href = data.url;
  } catch (error) {
    $("load-error").textContent = error.message;
  }
}

// A file input's own button and "no file chosen" are the browser's, in the browser's language:
// the page shows its own (index.html: .file-button, .file-name), in the page's.
function showChosen(input) {
  const names = [...input.files].map((file) => file.name);
  document.querySelector(`.file-name[data-for="${input.id}"]`).textContent =
    names.length ? names.join(", ") : _("no file chosen");
}

async function init() {
  const response = await fetch(window.withLang ? window.withLang("/api/rulesets") : "/api/rulesets");
  catalogue = await response.json();
  for (const r of catalogue.rulesets) $("ruleset").append(option(r.name, (r.titles || {})[window.I18N_LANG] || r.title));
  fillRuleset();
  $("ruleset").addEventListener("change", () => { fillRuleset(); checkUploads(); });
  $("variants").addEventListener("change", checkUploads);
  $("mod-files").addEventListener("change", checkUploads);
  for (const input of document.querySelectorAll("input.file")) input.addEventListener("change", () => showChosen(input));
  $("players").addEventListener("change", fillSeats);
  $("new-form").addEventListener("submit", start);
  $("resume").addEventListener("click", () => load("/api/resume"));
  $("replay").addEventListener("click", () => load("/api/replay"));
  document.body.dataset.ready = "1";
}

init();
