// The table's websocket, reconnected after it closes (a restarted server, a lost network):
// table.js calls Reconnect.opened() when its socket opens and Reconnect.closed(connect, say)
// when it closes; the page tries again after 0.5 s, 1 s, 2 s … (at most 30 s apart, with
// jitter), at once when the browser comes back online, and says so. On reconnecting the
// server sends the game as it is now (a restarted server rebuilt it from its database).
"use strict";

const Reconnect = (() => {
  let attempt = 0;
  let timer = null;
  let again = null;

  function opened() {
    attempt = 0;
    document.body.dataset.connected = "1";
  }

  function closed(connect, say) {
    document.body.dataset.connected = "0";
    if (timer) return;
    const delay = Math.min(30000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
    attempt += 1;
    again = () => { clearTimeout(timer); timer = null; again = null; connect(); };
    say(`the connection to the table was lost: trying again in ${Math.max(1, Math.round(delay / 1000))} s…`);
    timer = setTimeout(again, delay);
  }

  window.addEventListener("online", () => { if (again) again(); });
  return { opened, closed };
})();
