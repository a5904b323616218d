// The lobby (issue 21): the games this browser plays (their tokens kept in localStorage, sent
// only to this server, to ask whose turn it is), the open games with free seats (join or
// watch), and — on the new-game page — the title and an optional browser notification when
// it is your turn. On a table page it only remembers the page's game and token.
"use strict";

const Lobby = (() => {
  const KEY = "speciation-games";
  const LIMIT = 100;
  const byId = (id) => document.getElementById(id);
  const _ = window._ || ((s) => s);  // i18n.js: the page's language

  function remembered() {
    try {
      const list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter((g) => g && typeof g.game === "string" && typeof g.token === "string") : [];
    } catch (error) {
      return [];
    }
  }

  function remember(game, token) {
    if (!game || !token) return;
    const list = remembered().filter((g) => !(g.game === game && g.token === token));
    list.unshift({ game, token });
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, LIMIT))); } catch (error) { /* private mode */ }
  }

  // A table page: keep its game and token for "your games".
  const [, mode, ident] = location.pathname.split("/");
  if (mode === "play" && ident) remember(ident, new URLSearchParams(location.hash.slice(1)).get("t"));

  function cell(text, tag = "td") {
    const element = document.createElement(tag);
    element.textContent = text;
    return element;
  }

  function seatsText(game) {
    return game.seats.map((s) => `${s.seat + 1}: ${s.kind}${s.free ? " (free)" : ""}`).join(", ");
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : "";
  }

  let waiting = -1;
  const title = document.title;

  async function showMine() {
    const list = remembered();
    const box = byId("mine");
    if (!list.length) {
      box.replaceChildren(cell(_("No games yet: start one, or join an open game."), "p"));
      return;
    }
    const response = await fetch("/api/mine", { method: "POST", headers: { "Content-Type": "application/json" },
                                                body: JSON.stringify({ games: list }) });
    const data = await response.json();
    const rows = [];
    for (const game of data.games || []) {
      const token = (list.find((g) => g.game === game.game) || {}).token;
      const row = document.createElement("tr");
      row.className = game.yours ? "yours" : "";
      row.dataset.game = game.game;
      const link = document.createElement("a");
      link.href = `/play/${game.game}#t=${token}`;
      link.textContent = game.title;
      const name = document.createElement("td");
      name.append(link);
      // every seat deciding now (several while seats decide at once)
      const deciding = (game.deciding || (game.turn === null ? [] : [game.turn])).map((s) => s + 1).join(", ");
      const turn = game.finished ? _("game over") : game.yours ? _("your turn") : deciding ? _("seat {n}", { n: deciding }) : "";
      row.append(name, cell(game.mine.map((s) => s + 1).join(", ") || _("creator")), cell(turn), cell(when(game.updated)));
      rows.push(row);
    }
    const table = document.createElement("table");
    const head = document.createElement("tr");
    for (const label of [_("Game"), _("Your seat"), _("Turn"), _("Last move")]) head.append(cell(label, "th"));
    table.append(head, ...rows);
    box.replaceChildren(rows.length ? table : cell(_("None of your games is on this server."), "p"));
    const count = (data.games || []).filter((g) => g.yours).length;
    document.title = count ? `(${count}) ${_("your turn")} — ${title}` : title;
    document.body.dataset.yourTurn = String(count);
    if (count > waiting && waiting >= 0 && "Notification" in window && Notification.permission === "granted") {
      new Notification(_("Speciation: it is your turn"), { body: _("games waiting for you: {count}", { count }), tag: "speciation-turn" });
    }
    waiting = count;
  }

  async function showOpen() {
    const response = await fetch("/api/lobby");
    const data = await response.json();
    const box = byId("open-games");
    const rows = [];
    for (const game of data.games || []) {
      const row = document.createElement("tr");
      row.dataset.game = game.game;
      const join = document.createElement("button");
      join.textContent = _("Join");
      join.addEventListener("click", () => joinGame(game.game));
      const watch = document.createElement("a");
      watch.href = game.spectate;
      watch.textContent = _("Watch");
      const actions = document.createElement("td");
      actions.append(join, " ", watch);
      row.append(cell(game.title), cell(seatsText(game)), cell(String(game.decisions)), actions);
      rows.push(row);
    }
    const table = document.createElement("table");
    const head = document.createElement("tr");
    for (const label of [_("Game"), _("Seats"), _("Decisions"), ""]) head.append(cell(label, "th"));
    table.append(head, ...rows);
    box.replaceChildren(rows.length ? table : cell(_("No open game waits for players."), "p"));
  }

  async function joinGame(game) {
    const response = await fetch(`/api/games/${game}/join`, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": window.I18N_LANG || "en" },
      body: "{}" });
    const data = await response.json();
    if (!response.ok) {
      byId("lobby-error").textContent = data.error || _("cannot join");
      refresh();
      return;
    }
    remember(data.game, data.url.split("#t=")[1]);
    location.href = data.url;
  }

  async function refresh() {
    try {
      await Promise.all([showMine(), showOpen()]);
      document.body.dataset.lobby = "1";
    } catch (error) {
      byId("lobby-error").textContent = _("the lobby could not be read: {why}", { why: error.message });
    }
  }

  function start() {
    const ask = byId("notify");
    if (ask) {
      if (!("Notification" in window) || Notification.permission !== "default") ask.hidden = true;
      ask.addEventListener("click", async () => {
        await Notification.requestPermission();
        ask.hidden = true;
      });
    }
    refresh();
    setInterval(refresh, 20000);
  }

  if (byId("lobby")) start();
  return { remember, refresh };
})();
