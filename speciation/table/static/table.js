// The table: the board, the options, players, log; live over a websocket.
// Everything shown comes from the messages the server builds from this seat's view.
"use strict";

window._ = window._ || ((s) => s);

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
  if (mode === "play") query.set("patch", "1");  // a picture may come as the lines that changed
  if (mode === "replay" && params.get("seat") !== null) query.set("seat", params.get("seat"));
  if (window.I18N_LANG) query.set("lang", window.I18N_LANG);
  const text = query.toString();
  socket = new WebSocket(`${scheme}://${location.host}/ws/${mode}/${ident}${text ? "?" + text : ""}`);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onopen = () => Reconnect.opened();
  socket.onclose = () => Reconnect.closed(connect, toast);  // reconnect.js: tries again with backoff
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// The picture and log this page was sent last: a state may bring only the lines of its picture
// that differ from it (svg_patch: their numbers and the number of lines) and the log's new lines
// (log_patch: how many of the last lines shown stay, and the lines after them; messages.patched).
let picture = "";
let logShown = [];
function patched(message) {
  if (message.type !== "state") return message;
  if (message.svg_patch) {
    const lines = picture.split("\n").slice(0, message.svg_patch.length);
    for (const [i, line] of Object.entries(message.svg_patch.lines)) lines[Number(i)] = line;
    message.svg = lines.join("\n");
    delete message.svg_patch;
  }
  if (message.log_patch) {
    const keep = message.log_patch.keep;
    message.log = logShown.slice(logShown.length - keep).concat(message.log_patch.add);
    delete message.log_patch;
  }
  if (typeof message.svg === "string") picture = message.svg;
  if (Array.isArray(message.log)) logShown = message.log;
  return message;
}

let received = 0;
function receive(message) {
  message = patched(message);
  document.body.dataset.received = ++received;
  if (message.type === "error") return toast(message.text);
  if (message.type === "invite") return showInvite(message.seat, message.url);
  if (message.type === "handover") return showHandover(message);
  if (message.type === "state") return showState(message);
}

// ---- hot-seat hand-over -------------------------------------------------------------------

function showHandover(message) {
  state = null;
  picture = "";  // the next person's picture and log come whole (the server forgets them too)
  logShown = [];
  Clicks.chosen(null);  // nothing of the last person's stays: their choice, a menu, a hover text
  hideMenu();
  $("menu").replaceChildren();
  $("tip").hidden = true;
  $("tip").textContent = "";
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
  showTurn("handover");
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
  showTurn(message.over ? "over" : message.yours ? "yours" : "waiting");
  $("board").innerHTML = message.svg;
  applyZoom();
  markChoosable(message);
  showEnd(message);
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
    $("prompt").textContent = message.winner_name ? _("{name} wins", { name: message.winner_name }) : "";
  } else if (message.yours) {
    $("who").textContent = _("Your decision — {name}:", { name: message.seat_name });
    $("prompt").textContent = message.prompt;
  } else if (deciding(message).length > 1) {  // several seats decide at once: only that they do
    $("who").textContent = _("{names} decide at the same time.", { names: othersDeciding(message).join(", ") });
    $("prompt").textContent = "";
  } else {
    $("who").textContent = message.agent_thinking ? _("{name} decides (thinking…):", { name: message.decider_name })
      : _("{name} decides:", { name: message.decider_name });
    $("prompt").textContent = message.prompt;
  }
}

// The seats deciding now (several at once at a simultaneous step), and the others' names.
function deciding(message) {
  return message.deciders || (message.decider === null || message.decider === undefined ? [] : [message.decider]);
}

function othersDeciding(message) {
  const replay = message.mode === "replay";  // a replay names every seat deciding, the one shown too
  return deciding(message).filter((s) => replay || s !== message.seat).map((s) => message.players[s].name);
}

function markChoosable(message) {
  Clicks.mark($("board"), message.options, choose, showMenu);  // clicks.js
}

function choose(index) {
  hideMenu();
  if (state) Clicks.chosen(state.options.find((o) => o.index === index));
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
    box.append(note(message.over ? _("The game is over.") : _("Waiting for {name}.", { name: othersDeciding(message).join(", ") })));
    showCreator(message);
    return;
  }
  if (othersDeciding(message).length) {  // they decide at the same time; their choices stay hidden
    box.append(note(_("Deciding at the same time: {names}.", { names: othersDeciding(message).join(", ") })));
  }
  for (const o of message.options) {
    const button = document.createElement("button");
    button.className = "option" + (o.entities.length ? " on-board" : "");
    button.textContent = o.label;
    button.dataset.key = o.index + 1;  // drawn before the label (the number key that chooses it)
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
  box.querySelector(".hint").hidden = message.hotseat;  // "send each person their own link"
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
    // Hot-seat: no seat's link on the shared screen (whoever holds it could open another's
    // seat with it, past the hand-over); a person can still be replaced by an agent.
    const shared = message.hotseat;
    if (links[p.seat] && !shared) row.append(linkField(links[p.seat]));
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
    row.append(" ", ...(shared ? [] : [again, " "]), replace, agent);
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
    row.className = (deciding(message).includes(p.seat) ? "deciding " : "") + (p.seat === message.seat ? "me" : "");
    const name = row.insertCell();
    name.textContent = p.name;  // one name per seat: what it plays, as the log says, and the player
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
    // whose decision the step was (several seats deciding at once answer one by one)
    let by = $("step-by");
    if (!by) {
      by = document.createElement("span");
      by.id = "step-by";
      $("step").after(by);
    }
    by.textContent = message.answered === null || message.answered === undefined ? "" : ` · ${message.players[message.answered].name}`;
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
  $("undo").disabled = !message.can_undo || message.over;
  $("undo").title = message.can_undo ? _("take back your last decision") : message.undo_reason;
  const seat = message.seat === null || message.seat === undefined ? "" : message.seat;
  $("save").href = `/api/games/${ident}/save?` + new URLSearchParams({ token, seat });
  $("save").title = message.over ? _("download the whole game") : _("download what you have seen of the game");
}

// ---- menus, hover text, messages --------------------------------------------------------------

function showMenu(options, x, y) {
  const menu = $("menu");
  $("tip").hidden = true;  // the menu, not the hover text, under the finger
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
  const node = event.target.closest("[data-entity], .token");
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
  tip.dataset.entity = node.dataset.entity || "";
  tip.hidden = false;
  // kept inside the window (a phone is narrower than the tip)
  tip.style.left = `${Math.max(4, Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 4))}px`;
  tip.style.top = `${Math.max(4, Math.min(event.clientY + 14, window.innerHeight - tip.offsetHeight - 4))}px`;
}

// ---- whose turn: the title and the icon of the page's tab ------------------------------------

const TITLE = document.title;
function showTurn(phase) {
  const titles = { yours: `● ${_("Your turn")} — ${TITLE}`, over: `${_("Game over")} — ${TITLE}`,
    handover: `${_("Hand over")} — ${TITLE}` };
  document.title = titles[phase] || TITLE;
  const colours = { yours: "#f2b705", over: "#2f6f4f", handover: "#f2b705" };
  const colour = colours[phase] || "#8a8577";
  const ring = phase === "yours" ? '<circle cx="16" cy="16" r="15" fill="none" stroke="#a23b2a" stroke-width="2"/>' : "";
  const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="12" fill="${colour}"/>${ring}</svg>`;
  const link = $("favicon");
  link.href = "data:image/svg+xml," + encodeURIComponent(icon);
  link.dataset.phase = phase;
}

// ---- number keys choose ----------------------------------------------------------------------

// Typed digits make an option's number; it is chosen when no longer number could follow, or
// after a short pause (so 12 can be typed where there are 12 or more options).
let typed = "";
let typedTimer = null;
function numberKey(event) {
  if (!/^[0-9]$/.test(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (!state || !state.yours || document.body.dataset.phase !== "yours") return;
  const count = state.options.length;
  typed += event.key;
  clearTimeout(typedTimer);
  const number = Number(typed);
  if (number < 1 || number > count) {
    typed = "";
    toast(`${_("no option")} ${number} (1–${count})`);
    return;
  }
  highlightTyped(number);
  const done = () => { typed = ""; choose(number - 1); };
  if (number * 10 > count) done();
  else typedTimer = setTimeout(done, 700);
}

function highlightTyped(number) {
  for (const b of $("options").querySelectorAll("button")) b.classList.toggle("typed", Number(b.dataset.index) === number - 1);
}

// ---- the board: zoom (buttons, ctrl + wheel, two fingers) and pan (scrolling) -----------------

let zoom = 0;  // 0: the picture fits the board's width; else its scale (1: as drawn)
function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const natural = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
  svg.style.width = zoom ? `${Math.round(natural * zoom)}px` : "100%";
  svg.style.maxWidth = zoom ? "none" : "100%";
  $("zoom-level").textContent = zoom ? `${Math.round(zoom * 100)}%` : _("fit");
}

function fitScale() {
  const svg = $("board").querySelector("svg");
  const natural = svg ? Number(svg.getAttribute("width")) : 0;
  return natural ? $("board").clientWidth / natural : 1;
}

function setZoom(next, x, y) {
  const board = $("board");
  const before = zoom || fitScale();
  const after = Math.max(0.3, Math.min(4, next));
  // keep the point under (x, y) (board coordinates) where it was
  const cx = (board.scrollLeft + (x ?? board.clientWidth / 2)) / before;
  const cy = (board.scrollTop + (y ?? board.clientHeight / 2)) / before;
  zoom = after;
  applyZoom();
  board.scrollLeft = cx * after - (x ?? board.clientWidth / 2);
  board.scrollTop = cy * after - (y ?? board.clientHeight / 2);
}

let pinch = null;
function pinchDistance(touches) {
  return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
}

function initZoom() {
  const board = $("board");
  $("zoom-in").addEventListener("click", () => setZoom((zoom || fitScale()) * 1.25));
  $("zoom-out").addEventListener("click", () => setZoom((zoom || fitScale()) / 1.25));
  $("zoom-fit").addEventListener("click", () => { zoom = 0; applyZoom(); });
  board.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const box = board.getBoundingClientRect();
    setZoom((zoom || fitScale()) * (e.deltaY < 0 ? 1.1 : 1 / 1.1), e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });
  board.addEventListener("touchstart", (e) => {
    if (e.touches.length === 2) pinch = { distance: pinchDistance(e.touches), scale: zoom || fitScale() };
  }, { passive: true });
  board.addEventListener("touchmove", (e) => {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    const box = board.getBoundingClientRect();
    const x = (e.touches[0].clientX + e.touches[1].clientX) / 2 - box.left;
    const y = (e.touches[0].clientY + e.touches[1].clientY) / 2 - box.top;
    setZoom(pinch.scale * pinchDistance(e.touches) / pinch.distance, x, y);
  }, { passive: false });
  board.addEventListener("touchend", () => { pinch = null; });
}

// ---- the end of the game: ranking, scores, the breakdown the rules give, how it ended ------------

function showEnd(message) {
  const box = $("end");
  box.hidden = !message.over || !message.end || message.mode === "replay";
  if (box.hidden) return;
  const end = message.end;
  $("end-reason").textContent = end.reason ? `${_("The game ended")}: ${end.reason}` : "";
  const table = $("ranking");
  table.replaceChildren();
  for (const r of end.ranking) {
    const row = table.insertRow();
    row.className = (r.place === 1 ? "first " : "") + (r.seat === message.seat ? "me" : "");
    row.insertCell().textContent = `${r.place}.`;
    const name = row.insertCell();
    name.textContent = r.name;
    if (r.cards.length) {
      const cards = document.createElement("small");
      cards.className = "cards";
      cards.textContent = `${_("cards")} (${r.cards.length}): ${r.cards.join(", ")}`;
      name.append(document.createElement("br"), cards);
    }
    const score = row.insertCell();
    score.className = "score";
    score.textContent = r.score;
  }
  const list = $("breakdown");
  list.replaceChildren();
  for (const line of end.closing) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  $("breakdown-box").hidden = !end.closing.length;
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
    method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": window.I18N_LANG || "en" },
    body: JSON.stringify({ token, seat }) });
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
  // a tap on something that cannot be chosen shows its text (a card's rules and provenance)
  $("board").addEventListener("click", (e) => {
    if (!e.target.closest(".choosable")) hoverText(e);
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest("#menu")) hideMenu();
    if (!e.target.closest("#board")) $("tip").hidden = true;
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideMenu(); });
  document.addEventListener("keydown", numberKey);
  initZoom();
  connect();
}

init();
