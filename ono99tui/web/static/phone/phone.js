// The phone page: draws what the door's PhoneSeat sends (ono99tui/web/phone/), and sends
// back what the player taps. It decides nothing of the game: which card may be played and
// why not come from the door. Every word comes from messages.json (one table, for the
// languages issue); names, chat and the table's sentences go in as text nodes only.
"use strict";

(() => {
  const SEAT_KEY = "ono99.phone.seat"; // not the terminal page's: one seat, one kind of page
  const NAME_KEY = "ono99.name";
  const SOUND_KEY = "ono99.sound";
  const NOTIFY_KEY = "ono99.notify-asked";
  const LANG_KEY = "ono99.lang"; // the language menu's choice, kept on this device
  const TV = document.body.dataset.view === "tv";
  const $ = (id) => document.getElementById(id);
  let M = {};
  let S = {}; // the state's parts, as the door sent them
  let socket = null;
  let seat = null;
  let retry = 0;
  let retryTimer = null;
  let ended = false;
  let sent = false; // a move is on its way: the hand waits for the next state
  let clockTimer = null;
  let clockLeft = null;
  let audio = null;
  let lastTitle = "";
  let resultsClosed = null;
  let heard = 0; // when the door was last heard: a socket silent for long is dead
  // The page asks every PING_MS; a socket that has said nothing for DEAD_MS is given up
  // (a lost Wi-Fi leaves it open and silent) and the page connects again.
  const PING_MS = 5000;
  const DEAD_MS = 12000;

  function t(key, params) {
    return filledIn(key in M ? M[key] : key, params);
  }

  function filledIn(text, params) {
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split(`{${name}}`).join(String(value));
    }
    return text;
  }

  // A counted phrase: the form the language's rule gives `count` (the door sends the forms
  // and, in M.plural, which form each count takes: ono99tui/web/phone/messages.py).
  function tn(key, count, params) {
    const forms = M[key];
    if (!Array.isArray(forms)) return t(key, { count, ...params });
    const rule = M.plural || [];
    const form = rule.length ? rule[count < rule.length ? count : rule.length / 2 + (count % 100)]
                             : (count === 1 ? 0 : 1);
    return filledIn(forms[Math.min(form, forms.length - 1)], { count, ...params });
  }

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text; // never markup
    if (className) node.className = className;
    return node;
  }

  function fill(root) {
    for (const node of root.querySelectorAll("[data-m]")) node.textContent = t(node.dataset.m);
    for (const node of root.querySelectorAll("[data-mp]")) node.placeholder = t(node.dataset.mp);
  }

  // A select's choices from the door's [value, words] pairs, the current one chosen.
  function choices(select, pairs, current) {
    const wanted = JSON.stringify(pairs);
    if (select.dataset.pairs !== wanted) {
      select.dataset.pairs = wanted;
      select.replaceChildren(...pairs.map(([value, words]) => {
        const option = el("option", words);
        option.value = value;
        return option;
      }));
    }
    select.value = current;
  }

  // A field the host may be typing in keeps what they typed.
  function shown(input, value) {
    if (document.activeElement !== input) input.value = value;
  }

  function drawHostRules(room) {
    const rules = room.rules;
    for (const id of ["opt-scoring", "opt-target", "opt-tokens", "opt-ono99_card"]) $(id).disabled = !rules;
    shown($("opt-turn"), room.turn_seconds ? String(Math.round(room.turn_seconds)) : "");
    $("spectator-chat").checked = room.spectator_chat !== false;
    if (!$("bot-level").dataset.chosen && room.bot_level) $("bot-level").value = room.bot_level;
    if (!rules) { $("opt-switches").replaceChildren(); return; }
    choices($("opt-scoring"), rules.scorings, rules.scoring);
    choices($("opt-ono99_card"), rules.ono99_cards, rules.ono99_card);
    shown($("opt-target"), String(rules.target));
    shown($("opt-tokens"), String(rules.tokens));
    // Only the options the scoring uses: a single round has neither target nor tokens.
    for (const [id, used] of [["opt-target", rules.uses_target], ["opt-tokens", rules.uses_tokens]]) {
      $(id).hidden = !used;
      document.querySelector(`label[for="${id}"]`).hidden = !used;
    }
    $("opt-switches").replaceChildren(...rules.switches.map(([option, words, on]) => {
      const label = el("label", null, "check");
      const box = el("input");
      box.type = "checkbox";
      box.id = `opt-${option}`;
      box.checked = on;
      box.onchange = () => send({ t: "rule", name: option, value: box.checked });
      label.append(box, " ", el("span", words));
      return label;
    }));
  }

  // A whole number typed in a field, sent once it is done (Enter or leaving it).
  function onNumber(input, make) {
    input.onchange = () => {
      const text = input.value.trim();
      const value = text === "" ? 0 : Number(text);
      if (Number.isInteger(value) && value >= 0) send(make(value));
      else showError({ code: "malformed", ref: input.id });
    };
  }

  // --- the seat and the socket -------------------------------------------------------

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), credentials: "same-origin",
    });
    let answer = {};
    try { answer = await response.json(); } catch (_) { /* not JSON: the status says */ }
    return { ok: response.ok, status: response.status, body: answer };
  }

  async function claimSeat() {
    const kept = sessionStorage.getItem(SEAT_KEY);
    if (kept) {
      const answer = await post("/seat", { seat: kept });
      if (answer.ok) return kept;
      sessionStorage.removeItem(SEAT_KEY);
    }
    if (TV) {
      const answer = await post("/seat", { name: t("tv.title").slice(0, 24) });
      if (answer.ok) { sessionStorage.setItem(SEAT_KEY, answer.body.seat); return answer.body.seat; }
      throw new Error(answer.body.error || t("error.seat"));
    }
    return new Promise((resolve) => {
      $("connecting").hidden = true;
      const form = $("join");
      const input = $("name");
      input.value = localStorage.getItem(NAME_KEY) || "";
      form.hidden = false;
      input.focus();
      form.onsubmit = async (event) => {
        event.preventDefault();
        const answer = await post("/seat", { name: input.value });
        if (!answer.ok) {
          $("join-error").textContent = answer.body.error || t("error.seat");
          return;
        }
        localStorage.setItem(NAME_KEY, input.value);
        sessionStorage.setItem(SEAT_KEY, answer.body.seat);
        form.hidden = true;
        resolve(answer.body.seat);
      };
    });
  }

  function connect() {
    clearTimeout(retryTimer);
    if (ended || (socket && socket.readyState <= 1)) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The table's sentences come in the page's language (the door's seat speaks it).
    const query = (TV ? "?watch=1&" : "?") + "lang=" + encodeURIComponent(M.lang || "en");
    socket = new WebSocket(`${scheme}//${location.host}/phone/ws/${encodeURIComponent(seat)}${query}`);
    let opened = false;
    socket.onopen = () => { opened = true; retry = 0; heard = Date.now(); };
    socket.onmessage = (message) => {
      heard = Date.now();
      let frame;
      try { frame = JSON.parse(message.data); } catch (_) { return; }
      receive(frame);
    };
    socket.onclose = (event) => {
      if (socket !== event.target) return; // an old socket given up already
      socket = null;
      if (event.code === 4001) return end(t("ended.replaced"), false);
      if (event.code === 4010) return end(t("ended.closed"), false);
      S.conn = "reconnecting";
      drawConn();
      if (!opened) checkSeat();
      // Back off, but come back at once when the page is shown or the network returns.
      retryTimer = setTimeout(connect, Math.min(8000, 500 * 2 ** retry++));
    };
  }

  // The door refused the socket: is this browser still logged in, and the seat still one
  // the door knows? A restarted host with a new password (or logins lost) asks for the
  // password again, and a seat it no longer has for a name: the page is loaded again for
  // that (the seat id stays in the tab, and comes back after the password). While the door
  // is down the question cannot be asked, and the retries go on.
  async function checkSeat() {
    let answer;
    try { answer = await post("/seat", { seat }); } catch (_) { return; }
    if (answer.status === 401 || answer.status === 404) location.reload();
  }

  // The link is gone (the network went, or the socket fell silent): say so and try again.
  function dropped() {
    const old = socket;
    socket = null;
    if (old) { old.onclose = null; try { old.close(); } catch (_) { /* closed already */ } }
    S.conn = "reconnecting";
    drawConn();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, Math.min(8000, 500 * 2 ** retry++));
  }

  function send(frame) {
    if (!socket || socket.readyState !== 1) {
      notice(t("offline"), "warning");
      return false;
    }
    socket.send(JSON.stringify(frame));
    return true;
  }

  function end(detail, again) {
    ended = true;
    $("ended-detail").textContent = detail || "";
    $("ended-again").hidden = !again;
    $("ended").hidden = false;
    $("ended-again").focus();
  }

  // --- frames ------------------------------------------------------------------------

  function receive(frame) {
    switch (frame.t) {
      case "state":
        applyState(frame);
        sent = false;
        draw();
        break;
      case "log":
        if (frame.all) $("log").replaceChildren();
        for (const line of frame.all || frame.add || []) addLog(line);
        drawLast();
        break;
      case "notice":
        notice(frame.text, frame.level, frame.for);
        break;
      case "error":
        sent = false;
        showError(frame);
        break;
      case "turn":
        turnSignal(frame);
        break;
      case "pong":
        break;
      case "hint": {
        const rows = frame.rows.map(([card, win]) => t("hint.row", { card, win })).join(" · ");
        $("hint-text").textContent = `${t("hint.suggested", { card: frame.suggested })} ${frame.reason} (${rows})`;
        $("hint-text").hidden = false;
        break;
      }
      case "gone":
        end(`${frame.headline} ${frame.detail}`, false);
        break;
      case "review":
        receiveReview(frame);
        break;
    }
  }

  // A state frame: the parts in "p" whole, then each op of "d", a path into the state and
  // the value put there (["game", "seats", 5, "cards", 3]): a move sends only what it
  // changed (ono99tui/web/phone/state.py, state_frame and apply_state_frame).
  function applyState(frame) {
    Object.assign(S, frame.p || {});
    for (const op of frame.d || []) {
      let node = S;
      for (let i = 0; i < op.length - 2; i++) node = node[op[i]];
      node[op[op.length - 2]] = op[op.length - 1];
    }
  }

  function addLog([number, kind, text]) {
    const line = el("p", text, `line ${kind}`);
    line.dataset.n = number;
    $("log").append(line);
    while ($("log").childElementCount > 60) $("log").firstElementChild.remove();
    $("log").scrollTop = $("log").scrollHeight;
  }

  function drawLast() {
    const lines = [...$("log").querySelectorAll(".event")].slice(-3).reverse();
    $("last").replaceChildren(...lines.map((line) => el("li", line.textContent)));
  }

  // A notice stands until the next one, for its time when it has one, and never past a
  // later change of screen (a "look over the new rules" is stale once the match is dealt);
  // one that came just before the state that changes the screen is about that change.
  let noticeTimer = null;
  let noticeFresh = false;
  function notice(text, level, seconds) {
    const node = $("notice");
    node.textContent = text;
    node.dataset.level = level || "information";
    noticeFresh = Boolean(text);
    clearTimeout(noticeTimer);
    noticeTimer = seconds ? setTimeout(() => notice(""), seconds * 1000) : null;
  }

  function showError(frame) {
    let text = frame.detail && frame.code === "not-playable" ? frame.detail : t(`error.${frame.code}`);
    if (frame.code === "bad-option" && frame.detail) text = `${text} ${frame.detail}`;
    if (frame.ref && ["play", "discard", "swap", "draw"].includes(frame.ref)) $("why").textContent = text;
    else notice(text, "error");
    draw();
  }

  // --- your turn ---------------------------------------------------------------------

  function soundOn() { return localStorage.getItem(SOUND_KEY) !== "off"; }

  function beep() {
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (_) { /* no audio here: the other signals still come */ }
  }

  function turnSignal(frame) {
    lastTitle = frame.title;
    document.title = frame.title || S.table || document.title;
    if (!frame.ring) return;
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    beep();
    if (document.hidden && window.Notification && Notification.permission === "granted") {
      try { new Notification(t("notify.title", { table: S.table || "" }), { body: t("turn.yours"), tag: "ono99-turn" }); } catch (_) { /* a page may not */ }
    }
  }

  function askNotifications() {
    if (TV || !window.Notification || Notification.permission !== "default" || localStorage.getItem(NOTIFY_KEY)) return;
    $("notify-ask").hidden = false;
    const done = () => { localStorage.setItem(NOTIFY_KEY, "1"); $("notify-ask").hidden = true; };
    $("notify-allow").onclick = () => { done(); Notification.requestPermission(); };
    $("notify-no").onclick = done;
  }

  function drawSound() {
    const on = soundOn();
    $("sound").textContent = t(on ? "sound.on" : "sound.off");
    $("sound").setAttribute("aria-pressed", String(on));
  }

  // --- drawing -----------------------------------------------------------------------

  function drawConn() {
    const conn = S.conn;
    $("conn").textContent = conn === "connected" ? "" : t(conn === "reconnecting" || conn === "connecting" ? "reconnecting" : "offline");
    document.body.classList.toggle("-offline", conn !== "connected");
  }

  let shownScreen = null; // "room", "game", "over" or "none": what draw() showed last
  function draw() {
    $("connecting").hidden = true;
    if (S.table) $("table-name").textContent = S.table;
    drawConn();
    const game = S.game;
    const room = S.room;
    // The waiting room; or, between matches, the table's seats for one who was not
    // seated in the match just played (a spectator who took a seat as it ended).
    const inRoom = room && (room.phase === "waiting" || (room.phase === "finished" && !game));
    const screen = inRoom ? "room" : game ? (game.over ? "over" : "game") : "none";
    if (shownScreen !== null && screen !== shownScreen && !noticeFresh) notice("");
    shownScreen = screen;
    noticeFresh = false;
    $("game").hidden = !game || inRoom;
    $("room").hidden = !(inRoom && !S.watching) || TV;
    $("watch").hidden = !(S.watching && !TV);
    $("chat").hidden = !(S.may && S.may.chat) || TV;
    $("hand").hidden = TV;
    if (TV && room && !game) $("connecting").textContent = t("tv.waiting");
    if (game && !inRoom) drawGame(game);
    if (room) drawRoom(room);
    drawWatch();
    drawResults();
    drawReview();
    drawEvening(Boolean(S.evening) && ((game && game.over && S.phase !== "waiting") || inRoom));
    drawClock(game);
    if (!game && !room) $("connecting").hidden = false;
  }

  function name(who) { return who === "" ? t("you") : who; }

  function prompt(game) {
    if (game.over) return t("turn.over");
    const card = t(`card.${game.ob_card}`);
    if (game.discard) return t("turn.discard");
    if (game.discarder) return t("turn.discarder", { name: game.discarder });
    if (game.draw) return t("turn.draw");
    if (game.mine) {
      if (game.swap_only) return t("turn.swap_only");
      if (game.owe === 2) return t("turn.owe2", { card });
      if (game.owe === 1) return t("turn.owe1", { card });
      return t("turn.yours");
    }
    if (game.turn === null) return "";
    const other = S.watching && !TV ? t("turn.watching", { name: game.turn }) : t("turn.other", { name: game.turn });
    return game.owes ? `${other} ${tn("turn.owes", game.owes[1], { name: game.owes[0], card })}` : other;
  }

  // A revealed card's label from its token (the page's words: Play 2 by the edition).
  // A card's label or a number set apart from the sentence around it (first-strong
  // isolate): "-10" keeps its minus in front in a right-to-left sentence.
  function isolate(text) {
    return `\u2068${text}\u2069`;
  }

  function cardLabel(token) {
    if (token === "play2") return t(`card.${S.game && S.game.ob_card === "double" ? "double" : "play2"}`);
    return `tok.${token}` in M ? t(`tok.${token}`) : token;
  }

  function cardName(card) {
    const effect = t(`fx.${card.fx}`, { n: card.n });
    return t("card.name", { label: card.label, effect });
  }

  function drawGame(game) {
    $("total-value").textContent = String(game.total);
    const limit = game.limit === 100 ? t("total.limit99", { max: 99 }) : t("total.limit", { limit: game.limit });
    $("total-limit").textContent = limit;
    $("total-last").textContent = game.last ? t("total.last", { card: isolate(game.last) }) : t("total.none");
    $("total").setAttribute("aria-label", `${t("total.name", { total: game.total, limit: game.limit })}; ${$("total-last").textContent}`);
    $("total").classList.toggle("-near", game.total >= game.limit - 10);
    $("direction").textContent = t(game.dir > 0 ? "dir.cw" : "dir.ccw");
    // The round (a single-round match has only one) and the cards left to draw, as the
    // terminal's header says them.
    $("round").textContent = [game.scoring !== "single" ? t("game.round", { n: game.round }) : null,
                              tn("game.pile", game.draw_pile)].filter(Boolean).join(" · ");
    $("prompt").textContent = prompt(game);
    $("prompt").classList.toggle("-act", Boolean(game.mine || game.draw || game.discard));
    drawHand(game);
    const swap = $("swap");
    swap.hidden = !game.swap;
    swap.textContent = t("move.swap");
    swap.setAttribute("aria-label", t("move.swap.name"));
    const drawButton = $("draw");
    drawButton.hidden = !game.draw;
    drawButton.textContent = t("move.draw");
    drawButton.setAttribute("aria-label", t("move.draw.name"));
    $("hint").hidden = !(S.may && S.may.hints && game.mine);
    if (!game.mine) $("hint-text").hidden = true;
    drawSeats($("seats"), game.seats);
  }

  function drawHand(game) {
    const hand = $("hand");
    hand.setAttribute("aria-label", t("hand.name"));
    const focused = hand.contains(document.activeElement) ? Number(document.activeElement.dataset.i) : null;
    const buttons = game.hand.map((card, index) => {
      const button = el("button", null, `card fx-${card.fx.replace(".", "-")}`);
      button.type = "button";
      button.dataset.i = index;
      button.dataset.tok = card.tok;
      const face = el("span", card.label, card.label.length > 3 ? "label -long" : "label");
      // Its own direction: in an Urdu or Pashto page "-10" would read "10-".
      face.setAttribute("dir", "auto");
      button.append(face, el("span", t(`fx.${card.fx}`, { n: card.n }), "effect"));
      const playable = card.ok && !sent;
      button.setAttribute("aria-label", cardName(card));
      button.setAttribute("aria-disabled", String(!playable));
      if (!card.ok) button.title = card.why;
      button.onclick = () => tapCard(index);
      return button;
    });
    if (!buttons.length) hand.replaceChildren(el("p", t("hand.empty"), "empty"));
    else hand.replaceChildren(...buttons);
    // Focus follows the hand: the same place, or the first card that can be played now.
    if (focused !== null || (game.mine && hand.dataset.wasMine !== "1")) {
      const target = buttons[Math.min(focused ?? 0, buttons.length - 1)];
      const playable = buttons.find((button) => button.getAttribute("aria-disabled") === "false");
      const next = focused !== null ? target : playable;
      if (next) next.focus({ preventScroll: true });
    }
    hand.dataset.wasMine = game.mine ? "1" : "0";
  }

  function tapCard(index) {
    const game = S.game;
    if (!game || sent) return;
    const card = game.hand[index];
    if (!card.ok) {
      $("why").textContent = `${isolate(card.label)}: ${card.why}`;
      return;
    }
    $("why").textContent = "";
    if (send({ t: game.discard ? "discard" : "play", i: index })) {
      sent = true;
      markSent(index);
    }
  }

  function markSent(index) {
    for (const button of $("hand").querySelectorAll("button")) {
      button.setAttribute("aria-disabled", "true");
      if (Number(button.dataset.i) === index) button.classList.add("-sent");
    }
  }

  function seatMarks(seatInfo) {
    const marks = [];
    if (seatInfo.you) marks.push(t("seat.you"));
    if (seatInfo.turn) marks.push(t("seat.turn"));
    if (seatInfo.bot) marks.push(t("seat.bot"));
    if (seatInfo.away) marks.push(t("seat.away"));
    if (seatInfo.out) marks.push(t("seat.out"));
    if (seatInfo.sitting_out) marks.push(t("seat.sitting_out"));
    if (seatInfo.owes) marks.push(t("seat.owes", { n: seatInfo.owes }));
    if (seatInfo.tokens !== null && seatInfo.tokens !== undefined) marks.push(tn("seat.tokens", seatInfo.tokens));
    if (seatInfo.score !== null && seatInfo.score !== undefined) marks.push(tn("seat.score", seatInfo.score));
    if (seatInfo.clock !== null && seatInfo.clock !== undefined) marks.push(t("clock.short", { n: seatInfo.clock }));
    return marks;
  }

  function drawSeats(list, seats) {
    list.replaceChildren(...seats.map((seatInfo) => {
      const item = el("li", null, "seat");
      item.classList.toggle("-turn", Boolean(seatInfo.turn));
      item.classList.toggle("-out", Boolean(seatInfo.out));
      item.classList.toggle("-you", Boolean(seatInfo.you));
      const who = el("span", seatInfo.name, "who");
      who.setAttribute("dir", "auto");
      const count = el("span", tn("seat.cards", seatInfo.cards), "count");
      item.append(who, count);
      const marks = seatMarks(seatInfo);
      if (marks.length) item.append(el("span", marks.join(" · "), "marks"));
      if (seatInfo.shown) item.append(el("span", t("seat.held", { cards: seatInfo.shown.map(cardLabel).join(", ") }), "marks"));
      return item;
    }));
  }

  function drawRoom(room) {
    $("room-rules").textContent = t("room.rules", { preset: t(`preset.${room.preset}`) });
    const told = [];
    if (room.scoring) told.push(t("room.scoring_is", { scoring: room.scoring }));
    told.push(room.turn_seconds ? t("room.clock", { n: Math.round(room.turn_seconds) }) : t("room.no_clock"));
    if (room.spectator_chat === false) told.push(t("room.no_spectator_chat"));
    if (room.duplicate_set) told.push(room.duplicate_set); // the door's words: "deal 2 of 4"
    $("room-options").textContent = told.join(" · ");
    // The host's phone says whether Deal now can deal: the table refuses with one player.
    const alone = S.host && !room.start_when && room.here < 2;
    $("room-when").textContent = room.start_when ? t("room.start_when", { n: room.start_when })
      : !S.host ? t("room.waiting") : alone ? t("room.host_alone") : t("room.host_deals", { n: room.here });
    // Still tappable (the table's refusal says why too), but marked: the line above says why.
    $("start").setAttribute("aria-disabled", String(alone));
    $("start").setAttribute("aria-describedby", "room-when");
    $("room-watching").textContent = room.watching ? tn("room.watching", room.watching) : "";
    const seats = room.seats.map((seatInfo) => ({
      name: seatInfo.name, you: seatInfo.you, bot: seatInfo.bot, away: seatInfo.away,
      cards: null, ready: seatInfo.ready, rating: seatInfo.rating, unrated: seatInfo.unrated,
      host: seatInfo.host,
    }));
    $("room-seats").replaceChildren(...seats.map((seatInfo) => {
      const item = el("li", null, "seat");
      const who = el("span", seatInfo.name, "who");
      who.setAttribute("dir", "auto");
      item.append(who);
      const marks = [];
      if (seatInfo.you) marks.push(t("seat.you"));
      if (seatInfo.bot) marks.push(t("seat.bot"));
      if (seatInfo.away) marks.push(t("seat.away"));
      // The host deals and says no "ready" (as the terminal's room shows it).
      marks.push(t(seatInfo.ready || seatInfo.bot ? "room.is_ready"
                   : seatInfo.host ? "room.host" : "room.waiting_for"));
      if (seatInfo.rating !== null && seatInfo.rating !== undefined) marks.push(t("seat.rating", { n: seatInfo.rating }));
      if (seatInfo.unrated) marks.push(t("seat.unrated"));
      item.append(el("span", marks.join(" · "), "marks"));
      return item;
    }));
    for (let free = room.seats.length; free < room.capacity; free++) $("room-seats").append(el("li", t("room.free"), "seat -free"));
    const ready = $("ready");
    ready.textContent = t(room.ready ? "room.not_ready" : "room.ready");
    ready.setAttribute("aria-pressed", String(room.ready));
    ready.hidden = S.host && !room.start_when;
    drawRated();
    $("host-options").hidden = !S.host;
    if (S.host) {
      $("preset").value = room.preset || "2022";
      $("hints-on").checked = Boolean(room.hints);
      $("duplicate-on").checked = Boolean(room.duplicate);
      drawHostRules(room);
      $("bots").replaceChildren(...room.seats.filter((s) => s.bot).map((s) => {
        const button = el("button", t("room.remove_bot", { name: s.name }), "quiet");
        button.type = "button";
        button.onclick = () => send({ t: "remove_bot", seat: s.seat });
        return button;
      }));
    }
  }

  // The player's own "Rate my play" switch (PROTOCOL.md "Ratings"): the door says whether
  // it is on (S.rated), or null where there is none to offer.
  function drawRated() {
    const offered = S.rated === true || S.rated === false;
    $("rated-choice").hidden = !offered;
    if (offered) $("rated-on").checked = S.rated;
  }

  function drawWatch() {
    const may = S.may || {};
    $("take-seat").hidden = !may.seat;
    $("want-seat").hidden = !(may.want_seat || may.seat_wanted);
    $("want-seat").textContent = t(may.seat_wanted ? "watch.wanted" : "watch.want_seat");
  }

  function drawResults() {
    const results = S.results;
    const game = S.game;
    const over = game && game.over && S.phase !== "waiting";
    const shown = (results && results.kind === "round" && resultsClosed !== JSON.stringify(results)) || over;
    $("results").hidden = !shown || TV && !over;
    if (!shown) return;
    const rows = $("results-rows");
    if (over) {
      $("results-title").textContent = t("results.match");
      $("results-winners").textContent = game.you_won ? t("results.you_won") : t("results.won", { names: game.winners.map(name).join(" & ") });
      // First place first (the list's numbers are the places), not the seats' order.
      const placed = game.places ? game.places.map((i) => game.seats[i]) : game.seats;
      rows.replaceChildren(...placed.map((s, row) => {
        const marks = seatMarks({ ...s, turn: false, clock: null, owes: 0 });
        const item = el("li", [s.name, ...marks].join(" · "));
        if (game.place_numbers) item.value = game.place_numbers[row]; // equals share a place
        return item;
      }));
      $("results-continue").hidden = true;
      drawPlot(null);
      $("rematch").hidden = !(S.may && S.may.rematch) || TV;
      $("open-room").hidden = !(S.may && S.may.open_room);
      const me = S.room && S.room.seats.find((s) => s.you);
      $("rematch-asked").hidden = !(me && me.ready && !S.host);
      $("rematch").hidden = $("rematch").hidden || !$("rematch-asked").hidden;
      $("review-open").hidden = !(S.may && S.may.review) || TV || review !== null;
    } else {
      $("results-title").textContent = t("results.round", { n: results.round });
      $("results-winners").textContent = "";
      rows.replaceChildren(...results.rows.map((row) => el("li", row.tokens !== null
        ? `${row.name} · ${tn("seat.tokens", row.tokens)}`
        : `${row.name} · ${t("results.points", { points: row.points, score: row.score })}`)));
      $("results-continue").hidden = false;
      drawPlot(results.round);
      $("rematch").hidden = true;
      $("open-room").hidden = true;
      $("rematch-asked").hidden = true;
      $("review-open").hidden = true;
    }
  }

  // --- a coach's review, once the match is over -------------------------------------
  // The door works it out in a child process (ono99tui/web/phone/review.py) and sends
  // "review" frames: "working" (done of of, in words), then "ready" (the summary and the
  // costliest choices first, each with its position: the hand as chips with each card's
  // chance), or "failed", or "stopped" (a new match was dealt). One review at a time: a
  // second tap while it works is answered with where it is.
  let review = null; // the review shown (its last frame), null: none open
  let reviewClosed = false; // closed by the player: frames still coming are not shown

  function receiveReview(frame) {
    if (reviewClosed) return;
    if (frame.phase === "stopped") { review = null; drawReview(); drawResults(); return; }
    if (frame.phase === "working" && review && review.phase !== "working") return; // late
    const wasReady = review !== null && review.phase === "ready";
    review = frame;
    drawResults();
    drawReview();
    if (frame.phase === "ready" && !wasReady) {
      notice(t("review.ready"), "information"); // said by a screen reader (role=status)
      $("review-title").focus();
    } else if (frame.phase === "failed") notice(frame.text, "error");
  }

  function chip(label, chance, marks) {
    const item = el("li", null, "chip");
    for (const mark of marks) item.classList.add(`-${mark}`);
    item.append(el("span", label, "chip-label"));
    item.append(el("span", chance === null ? t("review.no_chance") : `${chance}%`, "chip-chance"));
    if (marks.length) item.append(el("span", marks.map((mark) => t(`review.${mark}`)).join(" · "), "chip-mark"));
    return item;
  }

  function drawReviewPlay(play) {
    const item = el("li", null, "review-play");
    item.append(el("p", play.text, "review-says"));
    item.append(el("p", play.position, "review-position"));
    const chips = el("ul", null, "chips");
    chips.setAttribute("aria-label", t("review.chances"));
    let played = false, best = false;
    for (const [label, chance] of play.hand) {
      const marks = [];
      if (!played && label === play.played) { marks.push("played"); played = true; }
      if (!best && label === play.best) { marks.push("best"); best = true; }
      chips.append(chip(label, chance, marks));
    }
    item.append(chips);
    return item;
  }

  function drawReview() {
    const over = Boolean(S.game && S.game.over);
    if (!over) review = null; // a new match: that review is gone (the door stopped it)
    $("review").hidden = review === null || TV;
    if (review === null) return;
    const working = review.phase === "working";
    $("review-working").hidden = !working;
    if (working) {
      $("review-progress-text").textContent = review.text;
      $("review-progress").max = Math.max(1, review.of);
      $("review-progress").value = review.done;
    }
    const key = JSON.stringify(review) + M.lang;
    if ($("review").dataset.drawn === key) return;
    $("review").dataset.drawn = key;
    $("review-summary").textContent = review.phase === "ready" ? review.summary : review.phase === "failed" ? review.text : "";
    $("review-note").textContent = review.phase === "ready" ? review.note : "";
    $("review-plays").replaceChildren(...(review.phase === "ready" ? review.plays.map(drawReviewPlay) : []));
  }

  // --- the evening's ratings --------------------------------------------------------
  // S.evening (the door's evening_state): m the matches, p per player [name, [rating after
  // each match, or null]], s the same in a sentence. An inline SVG, one line per player,
  // each with its own dash and marker and its name written at its end (never colour
  // alone); the table under it is the legend and the plot's text alternative.
  const MARKERS = ["circle", "square", "triangle", "diamond"];
  const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

  function marker(kind, cx, cy) {
    const d = 3.2;
    if (kind === "circle") return svg("circle", { cx, cy, r: d });
    if (kind === "square") return svg("rect", { x: cx - d, y: cy - d, width: 2 * d, height: 2 * d });
    if (kind === "triangle") return svg("path", { d: `M${cx},${cy - d - 1}L${cx + d + 0.5},${cy + d}L${cx - d - 0.5},${cy + d}Z` });
    return svg("path", { d: `M${cx},${cy - d - 1}L${cx + d + 1},${cy}L${cx},${cy + d + 1}L${cx - d - 1},${cy}Z` });
  }

  function drawEvening(shown) {
    const box = $("evening");
    box.hidden = !shown;
    if (!shown) return;
    const evening = S.evening;
    const key = JSON.stringify(evening) + M.lang;
    if (box.dataset.drawn === key) return;
    box.dataset.drawn = key;
    const W = 320, H = 170, L = 44, R = 78, T = 10, B = 30;
    const n = evening.m.length;
    const all = evening.p.flatMap(([, ratings]) => ratings.filter((v) => v !== null));
    let low = Math.min(...all), top = Math.max(...all);
    if (top - low < 20) { low -= 10; top += 10; }
    const x = (i) => n > 1 ? L + (W - L - R) * i / (n - 1) : (L + W - R) / 2;
    const y = (v) => T + (H - T - B) * (top - v) / (top - low);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": evening.s, class: "plot-svg evening-svg" });
    root.append(svg("title", {}, evening.s));
    const axes = svg("g", { class: "plot-axes", "aria-hidden": "true" });
    axes.append(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B }));
    axes.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B }));
    for (const v of [...new Set([Math.round(low), Math.round(top)])]) {
      axes.append(svg("text", { x: L - 7, y: y(v) + 4, "text-anchor": "end", class: "plot-tick" }, v));
    }
    evening.m.forEach((_, i) => {
      if (n <= 8 || i === 0 || i === n - 1) axes.append(svg("text", { x: x(i), y: H - 16, "text-anchor": "middle", class: "plot-tick" }, i + 1));
    });
    axes.append(svg("text", { x: (L + W - R) / 2, y: H - 3, "text-anchor": "middle", class: "plot-label" },
      // Under one tick "1" the plural would read "1 matches".
      t(n === 1 ? "evening.match_axis" : "evening.matches_axis")));
    root.append(axes);
    // The names at the lines' ends, pushed apart so that none is written over another.
    const ends = [];
    evening.p.forEach(([who, ratings], index) => {
      const group = svg("g", { class: `evening-line -p${index % 4}`, "aria-hidden": "true", "data-name": who });
      const points = ratings.map((v, i) => (v === null ? null : [x(i), y(v)])).filter((p) => p);
      const line = svg("polyline", { points: points.map(([px, py]) => `${px},${py}`).join(" "), class: "plot-line" });
      if (DASHES[index % 4]) line.setAttribute("stroke-dasharray", DASHES[index % 4]);
      group.append(line);
      for (const [px, py] of points) group.append(marker(MARKERS[index % 4], px, py));
      root.append(group);
      const last = points[points.length - 1];
      ends.push({ who, index, x: last[0], y: last[1] });
    });
    ends.sort((a, b) => a.y - b.y);
    for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 12);
    const labels = svg("g", { class: "evening-names", "aria-hidden": "true" });
    for (const end of ends) {
      const text = end.who.length > 11 ? end.who.slice(0, 10) + "…" : end.who;
      labels.append(svg("text", { x: end.x + 8, y: end.y + 4, class: `plot-name -p${end.index % 4}` }, text));
    }
    root.append(labels);
    $("evening-plot").replaceChildren(root);
    $("evening-rows").replaceChildren(...evening.p.map(([who, ratings], index) => {
      const seen = ratings.filter((v) => v !== null);
      const row = el("tr");
      const head = el("th", null);
      head.scope = "row";
      const swatch = el("span", ["●", "■", "▲", "◆"][index % 4], `swatch -p${index % 4}`);
      swatch.setAttribute("aria-hidden", "true");
      const nameNode = el("span", who);
      nameNode.setAttribute("dir", "auto");
      head.append(swatch, " ", nameNode);
      const first = seen[0], now = seen[seen.length - 1], change = now - first;
      const nowCell = el("td", String(now));
      if (change) {
        const told = el("span", `(${change > 0 ? "+" : "−"}${Math.abs(change)})`, "change");
        told.setAttribute("dir", "ltr"); // "(−93)", not "(93−)", in a right-to-left page
        nowCell.append(" ", told);
      }
      row.append(head, el("td", String(first)), nowCell, el("td", String(seen.length)));
      return row;
    }));
  }

  // The last finished round's total after each play (S.plot, from the door: r round, t the
  // totals after the deal's 0, b the busts as [after how many plays, who, total], l the
  // total that busts), as an inline SVG: one dot per play, a cross per bust, the limit as a
  // dashed line; its accessible name says the same in a sentence.
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text; // never markup
    return node;
  }

  function plotSummary(plot) {
    const last = plot.t.length ? plot.t[plot.t.length - 1] : 0;
    let text = t("plot.summary", { round: plot.r, total: last, plays: plot.t.length });
    for (const [, who, total] of plot.b) text += "; " + t("plot.bust", { name: name(who), total });
    return text + ".";
  }

  function drawPlot(round) {
    const box = $("results-plot");
    const plot = S.plot;
    const shown = !!plot && (round === null || plot.r === round);
    box.hidden = !shown;
    if (!shown) return;
    const key = JSON.stringify(plot);
    if (box.dataset.drawn === key && box.dataset.lang === M.lang) return;
    box.dataset.drawn = key;
    box.dataset.lang = M.lang;
    const W = 320, H = 160, L = 34, R = 8, T = 8, B = 30;
    const low = Math.min(0, ...plot.t);
    const top = Math.max(plot.l, ...plot.b.map((b) => b[2]));
    const n = Math.max(1, plot.t.length);
    const x = (i) => L + (W - L - R) * i / n;
    const y = (v) => T + (H - T - B) * (top - v) / Math.max(1, top - low);
    const label = plotSummary(plot);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
                              class: "plot-svg" });
    root.append(svg("title", {}, label));
    const axes = svg("g", { class: "plot-axes", "aria-hidden": "true" });
    axes.append(svg("line", { x1: L, y1: y(low), x2: W - R, y2: y(low) }));
    axes.append(svg("line", { x1: L, y1: T, x2: L, y2: y(low) }));
    axes.append(svg("line", { x1: L, y1: y(plot.l), x2: W - R, y2: y(plot.l), class: "plot-limit" }));
    for (const v of [...new Set([low, 0, plot.l])]) {
      axes.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "plot-tick" }, v));
    }
    axes.append(svg("text", { x: L, y: H - 14, "text-anchor": "middle", class: "plot-tick" }, 0));
    axes.append(svg("text", { x: x(plot.t.length), y: H - 14, "text-anchor": "middle", class: "plot-tick" }, plot.t.length));
    axes.append(svg("text", { x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle", class: "plot-label" }, t("plot.plays")));
    root.append(axes);
    const line = [[0, 0], ...plot.t.map((v, i) => [i + 1, v])].map(([i, v]) => `${x(i)},${y(v)}`).join(" ");
    root.append(svg("polyline", { points: line, class: "plot-line", "aria-hidden": "true" }));
    const dots = svg("g", { class: "plot-plays", "aria-hidden": "true" });
    plot.t.forEach((v, i) => dots.append(svg("circle", { cx: x(i + 1), cy: y(v), r: 2.2, "data-total": v })));
    root.append(dots);
    const busts = svg("g", { class: "plot-busts", "aria-hidden": "true" });
    for (const [play, , total] of plot.b) {
      const cx = x(play), cy = y(total), d = 4;
      busts.append(svg("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}` }));
    }
    root.append(busts);
    box.replaceChildren(el("h3", t("plot.title")), root);
  }

  function drawClock(game) {
    clearInterval(clockTimer);
    const node = $("clock");
    if (!game || game.clock === null || game.clock === undefined || game.over) {
      node.hidden = true;
      return;
    }
    clockLeft = game.clock;
    const tick = () => {
      node.hidden = false;
      node.textContent = t("clock", { n: Math.max(0, clockLeft) });
      node.classList.toggle("-warn", clockLeft <= 10);
      clockLeft -= 1;
    };
    tick();
    clockTimer = setInterval(tick, 1000);
  }

  // --- the player's taps -------------------------------------------------------------

  function wire() {
    $("swap").onclick = () => { if (!sent && send({ t: "swap" })) sent = true; };
    $("draw").onclick = () => send({ t: "draw" });
    $("hint").onclick = () => send({ t: "hint" });
    $("ready").onclick = () => send({ t: "ready", on: !(S.room && S.room.ready) });
    $("rated-on").onchange = () => send({ t: "rated", on: $("rated-on").checked });
    $("start").onclick = () => send({ t: "start" });
    $("add-bot").onclick = () => send({ t: "add_bot", level: $("bot-level").value });
    $("bot-level").onchange = () => { $("bot-level").dataset.chosen = "1"; };
    $("opt-scoring").onchange = () => send({ t: "rule", name: "scoring", value: $("opt-scoring").value });
    $("opt-ono99_card").onchange = () => send({ t: "rule", name: "ono99_card", value: $("opt-ono99_card").value });
    onNumber($("opt-target"), (value) => ({ t: "rule", name: "target", value }));
    onNumber($("opt-tokens"), (value) => ({ t: "rule", name: "tokens", value }));
    onNumber($("opt-turn"), (seconds) => ({ t: "turn_time", seconds }));
    $("spectator-chat").onchange = () => send({ t: "spectator_chat", on: $("spectator-chat").checked });
    $("preset").onchange = () => send({ t: "preset", name: $("preset").value });
    $("hints-on").onchange = () => send({ t: "hints", on: $("hints-on").checked });
    $("duplicate-on").onchange = () => send({ t: "duplicate", on: $("duplicate-on").checked });
    $("rematch").onclick = () => send({ t: "rematch" });
    $("open-room").onclick = () => send({ t: "open_room" });
    $("results-continue").onclick = () => { resultsClosed = JSON.stringify(S.results); drawResults(); };
    $("review-open").onclick = () => { reviewClosed = false; send({ t: "review" }); };
    $("review-close").onclick = () => { review = null; reviewClosed = true; drawReview(); drawResults(); $("review-open").focus(); };
    $("take-seat").onclick = () => send({ t: "take_seat" });
    $("want-seat").onclick = () => send({ t: "want_seat" });
    $("chat").onsubmit = (event) => {
      event.preventDefault();
      const text = $("say").value;
      if (text.trim() && send({ t: "say", text })) $("say").value = "";
    };
    drawEmotes();
    $("lang").onchange = () => chooseLanguage($("lang").value);
    $("sound").onclick = () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      drawSound();
      if (soundOn()) beep(); // the tap lets the page make sound from now on
    };
    $("rules-open").onclick = () => $("rules").showModal();
    $("rules-close").onclick = () => $("rules").close();
    $("ended-again").onclick = () => location.reload();
    // A phone unlocked, a tab shown again, the network back: reconnect now, not on the
    // backoff's schedule.
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) { connect(); if (lastTitle) document.title = lastTitle; }
    });
    window.addEventListener("online", connect);
    window.addEventListener("offline", () => dropped());
    setInterval(() => {
      if (!socket || socket.readyState !== 1) return;
      if (Date.now() - heard > DEAD_MS) dropped();
      else socket.send('{"t":"ping"}');
    }, PING_MS);
  }

  function drawEmotes() {
    const emotes = ["hello", "nice-play", "oops", "your-turn", "good-game"];
    $("emotes").replaceChildren(...emotes.map((emote) => {
      const button = el("button", t(`emote.${emote}`), "quiet");
      button.type = "button";
      button.onclick = () => send({ t: "emote", name: emote });
      return button;
    }));
  }

  // --- the page's language ---------------------------------------------------------

  // The page's words in `code` (none: the door chooses, from the browser's Accept-Language,
  // else its own): the table of words, `lang` and `dir` (Urdu and Pashto mirror the page).
  async function loadWords(code) {
    const table = "/static/phone/messages.json" + (code ? "?lang=" + encodeURIComponent(code) : "");
    const response = await fetch(table, { credentials: "same-origin" });
    M = await response.json();
    document.documentElement.lang = M.lang || "en";
    document.documentElement.dir = M.dir || "ltr";
    fill(document);
    $("lang").value = M.lang || "en";
    $("lang").setAttribute("aria-label", t("lang.label"));
  }

  // The menu: the page's words at once, remembered on this device, and the door told, so
  // that its sentences (the log, the prompts, why a card cannot be played) follow.
  async function chooseLanguage(code) {
    localStorage.setItem(LANG_KEY, code);
    const address = new URL(location.href);
    if (address.searchParams.has("lang")) {
      address.searchParams.set("lang", code); // a reload keeps the choice, not the old ?lang=
      history.replaceState(null, "", address);
    }
    await loadWords(code);
    drawSound();
    drawEmotes();
    if (Object.keys(S).length) draw(); // the state's words (the door's come with its answer)
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ t: "lang", code }));
  }

  async function main() {
    // The page's language: `?lang=CODE` on the page's address, else the menu's choice on
    // this device, else the browser's (the door reads Accept-Language), else the door's
    // own (ono99tui/web/phone/messages.py).
    const asked = new URLSearchParams(location.search).get("lang") || localStorage.getItem(LANG_KEY);
    await loadWords(asked);
    drawSound();
    wire();
    try {
      seat = await claimSeat();
    } catch (error) {
      return end(String(error.message || error), true);
    }
    askNotifications();
    connect();
  }

  main();
})();
