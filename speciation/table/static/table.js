// The table: the board, the options, players, log; live over a websocket.
// Everything shown comes from the messages the server builds from this seat's view.
"use strict";

const $ = (id) => document.getElementById(id);
const _ = window._ || ((s, p) => s.replace(/\{(\w+)\}/g, (w, k) => (p && k in p ? p[k] : w)));
const [, mode, ident] = location.pathname.split("/");
const params = new URLSearchParams(location.search);
// The page's credential: the token of an invite link (or the creator's), in the address's
// fragment (never sent with a page request); without one the page is a spectator.
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
let socket = null;
let state = null;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams();
  if (mode === "play" && token) query.set("token", token);
  if (mode === "replay" && params.get("seat") !== null) query.set("seat", params.get("seat"));
  if (window.I18N_LANG) query.set("lang", window.I18N_LANG);
  const text = query.toString();
  socket = new WebSocket(`${scheme}://${location.host}/ws/${mode}/${ident}${text ? "?" + text : ""}`);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => toast(_("the connection to the table was closed (reload the page to reconnect)"));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

let received = 0;
function receive(message) {
  document.body.dataset.received = ++received;
  if (message.type === "error") return toast(message.text);
  if (message.type === "invite") return showInvite(message.seat, message.url);
  if (message.type === "handover") return showHandover(message);
  if (message.type === "state") return showState(message);
}

// ---- hot-seat hand-over -------------------------------------------------------------------

function showHandover(message) {
  state = null;
  $("board").replaceChildren();
  $("options").replaceChildren();
  $("log").replaceChildren();
  $("players").replaceChildren();
  $("seat-name").textContent = _("hand-over");
  $("handover-name").textContent = message.seat_name;
  $("handover-name2").textContent = message.seat_name;
  $("who").textContent = "";
  $("prompt").textContent = "";
  $("handover").hidden = false;
  document.body.dataset.phase = "handover";
}

// ---- the state of the game as this seat sees it ----------------------------------------------

function showState(message) {
  state = message;
  $("handover").hidden = true;
  hideMenu();
  document.body.dataset.phase = message.over ? "over" : message.yours ? "yours" : "waiting";
  const watching = message.seat === null || message.seat === undefined;
  document.body.dataset.role = watching ? "spectator" : "seat";
  $("seat-name").textContent = message.mode === "replay" ? (watching ? _("replay (what every seat saw)") : _("replay as {name}", { name: message.seat_name }))
    : watching ? _("watching (a spectator)") : _("you are {name}", { name: message.seat_name });
  showStatus(message);
  $("board").innerHTML = message.svg;
  markChoosable(message);
  showOptions(message);
  showPlayers(message);
  showLog(message.log);
  showTools(message);
}

function showStatus(message) {
  const status = $("status");
  status.className = "status " + (message.over ? "over" : message.yours ? "yours" : "waiting");
  if (message.over) {
    $("who").textContent = _("Game over");
    $("prompt").textContent = message.winner ? _("{name} wins", { name: message.winner }) : "";
  } else if (message.yours) {
    $("who").textContent = _("Your decision ({name}):", { name: message.seat_name });
    $("prompt").textContent = message.prompt;
  } else {
    $("who").textContent = message.agent_thinking ? _("{name} decides (thinking…):", { name: message.decider_name })
      : _("{name} decides:", { name: message.decider_name });
    $("prompt").textContent = message.prompt;
  }
}

function byEntity(options) {
  const map = new Map();
  for (const o of options) {
    for (const entity of o.entities) {
      if (!map.has(entity)) map.set(entity, []);
      map.get(entity).push(o);
    }
  }
  return map;
}

function markChoosable(message) {
  const board = $("board");
  for (const [entity, options] of byEntity(message.options)) {
    for (const node of board.querySelectorAll(`[data-entity="${CSS.escape(entity)}"]`)) {
      node.classList.add("choosable");
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        if (options.length === 1) choose(options[0].index);
        else showMenu(options, event.clientX, event.clientY);
      });
    }
  }
}

function choose(index) {
  hideMenu();
  document.body.dataset.phase = "sent";
  for (const b of $("options").querySelectorAll("button")) b.disabled = true;
  send({ type: "choose", decision: state ? state.decision : null, index });
}

function showOptions(message) {
  const box = $("options");
  box.replaceChildren();
  if (message.mode === "replay") {
    box.append(note(message.error || _("replay: step through the decisions with ◀ ▶")));
    return;
  }
  if (!message.yours) {
    box.append(note(message.over ? _("The game is over.") : _("Waiting for {name}.", { name: message.decider_name })));
    showCreator(message);
    return;
  }
  for (const o of message.options) {
    const button = document.createElement("button");
    button.className = "option" + (o.entities.length ? " on-board" : "");
    button.textContent = o.label;
    button.dataset.index = o.index;
    if (o.entities.length) {
      button.dataset.entities = o.entities.join(" ");
      button.title = _("also on the board");
      button.addEventListener("mouseenter", () => o.entities.forEach((e) => glow(e, true)));
      button.addEventListener("mouseleave", () => o.entities.forEach((e) => glow(e, false)));
    }
    button.addEventListener("click", () => choose(o.index));
    box.append(button);
  }
  showCreator(message);
}

// ---- the creator's page: the invite links, a person replaced by an agent ----------------------

function savedLinks() {
  try { return JSON.parse(sessionStorage.getItem(`speciation-links-${ident}`) || "{}"); } catch (e) { return {}; }
}

function showInvite(seat, url) {
  const links = savedLinks();
  links[seat] = location.origin + url;
  sessionStorage.setItem(`speciation-links-${ident}`, JSON.stringify(links));
  if (state) showCreator(state);
}

function showCreator(message) {
  const box = $("creator");
  box.hidden = !message.creator || message.over;
  if (box.hidden) return;
  const list = $("invites");
  list.replaceChildren();
  const spectator = document.createElement("p");
  spectator.className = "invite";
  spectator.append(_("Spectators:") + " ", linkField(`${location.origin}/play/${ident}`));
  list.append(spectator);
  const links = savedLinks();
  for (const p of message.players) {
    if (p.kind !== "human") continue;
    const row = document.createElement("div");
    row.className = "invite";
    row.dataset.seat = p.seat;
    row.append(`${p.name}: `);
    if (links[p.seat]) row.append(linkField(links[p.seat]));
    const again = document.createElement("button");
    again.textContent = links[p.seat] ? _("new link") : _("make a link");
    again.title = _("a new invite link for this seat (the old one stops working)");
    again.addEventListener("click", () => send({ type: "invite", seat: p.seat }));
    const agent = document.createElement("select");
    for (const a of message.agents || []) agent.append(new Option(_("agent: {name}", { name: _(a) }), a));
    const replace = document.createElement("button");
    replace.textContent = _("replace by");
    replace.className = "replace";
    replace.addEventListener("click", () => send({ type: "replace", seat: p.seat, agent: agent.value }));
    row.append(" ", again, " ", replace, agent);
    list.append(row);
  }
}

function linkField(url) {
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.className = "link";
  input.addEventListener("focus", () => input.select());
  return input;
}

function glow(entity, on) {
  for (const node of $("board").querySelectorAll(`[data-entity="${CSS.escape(entity)}"]`)) {
    node.classList.toggle("glow", on);
  }
}

function note(text) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = text;
  return p;
}

function showPlayers(message) {
  const table = $("players");
  table.replaceChildren();
  for (const p of message.players) {
    const row = table.insertRow();
    row.className = (p.seat === message.decider ? "deciding " : "") + (p.seat === message.seat ? "me" : "");
    const name = row.insertCell();
    name.textContent = p.name;
    if (p.plays) {
      const plays = document.createElement("small");
      plays.className = "plays";
      plays.textContent = ` · ${p.plays}`;
      name.append(plays);
    }
    row.insertCell().textContent = p.kind === "human" ? _("person") : _(p.kind);
    const score = row.insertCell();
    score.className = "score";
    score.textContent = p.score;
  }
}

function showLog(lines) {
  const log = $("log");
  log.replaceChildren();
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line.trim();
    if (!line.startsWith(" ")) item.className = "head";
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function showTools(message) {
  const replay = message.mode === "replay";
  $("play-tools").hidden = replay;
  $("replay-bar").hidden = !replay;
  if (replay) {
    asked = Math.max(0, asked - 1);
    if (asked === 0) wanted = message.step;
    $("step").textContent = _("decision {step} of {total}", { step: message.step, total: message.total });
    const select = $("replay-seat");
    if (select.options.length !== message.seats.length) {
      select.replaceChildren();
      message.seats.forEach((name, i) => {
        const o = document.createElement("option");
        o.value = i;
        o.textContent = name;
        select.append(o);
      });
    }
    select.value = message.seat;
    select.parentElement.hidden = message.locked;
    return;
  }
  $("undo").disabled = !message.can_undo;
  $("undo").title = message.can_undo ? _("take back your last decision") : message.undo_reason;
  const seat = message.seat === null || message.seat === undefined ? "" : message.seat;
  $("save").href = `/api/games/${ident}/save?` + new URLSearchParams({ token, seat });
  $("save").title = message.over ? _("download the whole game") : _("download what you have seen of the game");
}

// ---- menus, hover text, messages --------------------------------------------------------------

function showMenu(options, x, y) {
  const menu = $("menu");
  menu.replaceChildren();
  for (const o of options) {
    const button = document.createElement("button");
    button.textContent = o.label;
    button.addEventListener("click", () => choose(o.index));
    menu.append(button);
  }
  menu.hidden = false;  // placed by the click, kept inside the window (a long menu scrolls)
  menu.style.left = `${Math.max(0, Math.min(x + 6, window.innerWidth - menu.offsetWidth - 4))}px`;
  menu.style.top = `${Math.max(0, Math.min(y + 6, window.innerHeight - menu.offsetHeight - 4))}px`;
}

function hideMenu() {
  $("menu").hidden = true;
}

function hoverText(event) {
  const node = event.target.closest("[data-entity]");
  const tip = $("tip");
  if (!node) {
    tip.hidden = true;
    return;
  }
  const title = node.querySelector(":scope > title");
  if (!title || !title.textContent.trim()) {
    tip.hidden = true;
    return;
  }
  tip.textContent = title.textContent.trim();
  tip.dataset.entity = node.dataset.entity;
  tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - 340)}px`;
  tip.style.top = `${event.clientY + 14}px`;
  tip.hidden = false;
}

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function startReplay() {
  const seat = state && state.seat !== null && state.seat !== undefined ? state.seat : null;
  const response = await fetch(`/api/games/${ident}/replay`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, seat }) });
  const data = await response.json();
  if (data.url) location.href = data.url;
  else toast(data.error || _("cannot replay"));
}

// The decision a replay is going to (clicks may come faster than the answers).
let wanted = 0;
let asked = 0;
function step(to) {
  wanted = Math.max(0, Math.min(state ? state.total : 0, to));
  asked += 1;
  send({ type: "step", to: wanted });
}

function init() {
  $("ready").addEventListener("click", () => send({ type: "ready" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("replay").addEventListener("click", startReplay);
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(wanted - 1));
  $("forward").addEventListener("click", () => step(wanted + 1));
  $("last").addEventListener("click", () => step(state.total));
  $("replay-seat").addEventListener("change", (e) => { asked += 1; send({ type: "seat", seat: Number(e.target.value) }); });
  $("board").addEventListener("mousemove", hoverText);
  $("board").addEventListener("mouseleave", () => { $("tip").hidden = true; });
  document.addEventListener("click", (e) => { if (!e.target.closest("#menu")) hideMenu(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideMenu(); });
  connect();
}

init();
