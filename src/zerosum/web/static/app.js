// zerosum browser app: play any registered game against the engine, and step through
// a recorded alpha-beta search. Plain JavaScript and SVG, no build step, no libraries.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ helpers

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  if (parent) parent.appendChild(element);
  return element;
}

function html(tag, text = "", className = "") {
  const element = document.createElement(tag);
  if (text) element.textContent = text;
  if (className) element.className = className;
  return element;
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error-text").textContent = "";
}

// The error of a refused request: the server's message, and the seconds it asks us to
// wait before trying again (its Retry-After header), if any.
async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    message = (await response.json()).error || message;
  } catch (_) {
    // keep the status line
  }
  const error = new Error(message);
  const wait = Number(response.headers.get("retry-after"));
  error.retryAfter = wait > 0 ? wait : null;
  return error;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) throw await failure(response);
  return response.json();
}

// Read the file chosen in a file input as an upload ({name, text}), or null when none
// is chosen; a file over the server's limit is refused here, before it is sent.
async function readUpload(input, limit) {
  const file = input.files && input.files[0];
  if (!file) return null;
  if (file.size > limit) {
    throw new Error(`${file.name} is ${formatCount(file.size)} bytes; the most a game file may be is ${formatCount(limit)}`);
  }
  return { name: file.name, text: await file.text() };
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

// POST a JSON body and read the answer as server-sent events; onEvent(kind, data)
// is called for each event. EventSource cannot POST, so the stream is parsed here.
async function eventStream(path, body, onEvent) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message";
      const data = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("event:")) kind = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      onEvent(kind, data.length ? JSON.parse(data.join("\n")) : null);
    }
  }
}

function showScore(value) {
  if (value === "+inf") return "+∞";
  if (value === "-inf") return "−∞";
  if (value === null || value === undefined) return "?";
  return String(value);
}

function formatCount(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US");
}

// ------------------------------------------------------------------ tabs

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    const active = tab.dataset.panel === name;
    tab.classList.toggle("active", active);
    tab.setAttribute("aria-selected", active ? "true" : "false");
  }
  $("panel-play").hidden = name !== "play";
  $("panel-lab").hidden = name !== "lab";
}

// ================================================================== play

const play = {
  games: [],
  uploadLimit: 0,
  view: null,
  searching: false,
  ticket: null, // the running search's ticket (see think)
  retry: null, // the timer that asks the engine again after the server said "busy"
  halted: false, // the engine failed to move: wait for the person to ask again
  pending: false, // a move, undo, resign or swap is on its way to the server
  flipped: false, // the board is drawn turned round (chess as black)
  review: null, // the ply shown while stepping through the game, or null: the game itself
};

// Difficulty by name: the engine's time per move and, for the weak levels, how many
// plies it may look ahead (a short horizon misses threats, as a beginner does).
const LEVELS = [
  { name: "beginner", seconds: 0.05, depth: 1 },
  { name: "casual", seconds: 0.25, depth: 3 },
  { name: "club", seconds: 1, depth: null },
  { name: "strong", seconds: 3, depth: null },
  { name: "master", seconds: 10, depth: null },
];

function showLevels(maxThink) {
  const select = $("level-select");
  select.replaceChildren();
  for (const level of LEVELS.filter((l) => l.seconds <= maxThink)) {
    const option = html("option", `${level.name} (${limitText(level.seconds, level.depth)})`);
    option.value = level.name;
    select.appendChild(option);
  }
  const custom = html("option", "custom time");
  custom.value = "";
  select.appendChild(custom);
  select.value = "club";
  $("think-input").value = "1";
}

function chosenLevel() {
  return LEVELS.find((l) => l.name === $("level-select").value) || null;
}

function limitText(seconds, depth) {
  const plies = depth ? `${depth} ${depth === 1 ? "ply" : "plies"} ahead, ` : "";
  return `${plies}${seconds} s per move`;
}

// The engine's level as the server holds it: "casual (3 plies ahead, 0.25 s per move)".
function levelText(seconds, depth) {
  const level = LEVELS.find((l) => l.seconds === seconds && l.depth === depth);
  return level ? `${level.name} (${limitText(seconds, depth)})` : limitText(seconds, depth);
}

function gameSpec() {
  const name = $("game-select").value;
  const options = $("game-options").value.trim();
  return options ? `${name}:${options}` : name;
}

function currentEntry() {
  return play.games.find((g) => g.name === $("game-select").value);
}

// An option's cap in words: "heaps: each number at most 1,000, at most 16 items".
function describeCap(option) {
  const cap = option.cap;
  const items = cap.items > 1 ? `, at most ${cap.items} items` : "";
  return `${option.name}: each number at most ${formatCount(cap.most)}${items}`;
}

function describeGame() {
  const entry = currentEntry();
  if (!entry) return;
  // options naming files are refused from a browser: the file input stands in for them
  const typed = entry.options.filter((o) => !o.file);
  const options = typed.map((o) => (o.default === null ? o.name : `${o.name}=${o.default}`));
  $("game-options").placeholder = options.length ? options.join(",") : "none";
  $("game-options").title = typed.filter((o) => o.cap).map(describeCap).join("; ");
  $("game-options").value = "";
  $("position-input").value = "";
  $("game-file-label").hidden = !entry.upload;
  $("game-file").value = "";
  $("game-summary").textContent = entry.error ? `${entry.summary} (unavailable: ${entry.error})` : entry.summary;
}

async function loadGames() {
  const data = await api("GET", "/api/games");
  play.games = data.games;
  const select = $("game-select");
  select.replaceChildren();
  for (const game of play.games) {
    const option = html("option", game.name);
    option.value = game.name;
    select.appendChild(option);
  }
  play.uploadLimit = data.upload_limit;
  $("think-input").max = String(data.max_think);
  showLevels(data.max_think);
  const preferred = play.games.find((g) => g.name === "tictactoe");
  if (preferred) select.value = preferred.name;
  describeGame();
}

async function newGame(event) {
  if (event) event.preventDefault();
  clearError();
  const body = {
    game: gameSpec(),
    side: Number($("side-select").value),
    think: Number($("think-input").value) || 1,
  };
  const position = $("position-input").value.trim();
  if (position) body.position = position;
  const level = chosenLevel();
  if (level && level.depth && level.seconds === body.think) body.depth = level.depth;
  try {
    const entry = currentEntry();
    const upload = entry && entry.upload ? await readUpload($("game-file"), play.uploadLimit) : null;
    if (upload) body.upload = upload;
    const previous = play.view;
    // end the game shown first: one browser may keep only a few games on the server
    if (previous) await api("DELETE", `/api/sessions/${previous.id}`).catch(() => {});
    play.view = null;
    const view = await api("POST", "/api/sessions", body);
    // a board of pieces faces the person: black sees its own side at the bottom
    play.flipped = view.human === 1 && Boolean(view.board && view.board.piece_set);
    clearAnalysis();
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  }
}

// The person's move: the board stays locked from the click until the answer, so a
// second click cannot reach the server while the first is on its way.
async function playMove(text) {
  if (!play.view || boardLocked()) return;
  boardState.selected = null;
  await change("move", { move: text });
}

// Send one change of the game (a move, undo, resign, swap) and show the answer.
async function change(action, body) {
  if (!play.view || play.pending) return;
  clearError();
  play.pending = true;
  updateButtons();
  try {
    const view = await api("POST", `/api/sessions/${play.view.id}/${action}`, body);
    play.pending = false;
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  } finally {
    play.pending = false;
    updateButtons();
  }
}

async function undo() {
  await change("undo");
}

function clearAnalysis() {
  for (const id of ["an-score", "an-depth", "an-nodes", "an-nps", "an-pv"]) $(id).textContent = "–";
  $("depth-rows").replaceChildren();
}

// the server writes scores and depths in words ("win in 5 plies", "eval +12 points",
// "to the end"): the page shows those, never the engine's raw numbers
function showReport(report) {
  $("an-score").textContent = report.score_text;
  $("an-depth").textContent = report.depth_text;
  $("an-nodes").textContent = formatCount(report.nodes);
  $("an-nps").textContent = formatCount(report.nps);
  $("an-pv").textContent = report.pv.join(" ") || "–";
}

function addDepthRow(report) {
  const row = html("tr");
  row.appendChild(html("td", report.depth_text));
  row.appendChild(html("td", report.score_text));
  row.appendChild(html("td", formatCount(report.nodes)));
  row.appendChild(html("td", `${report.elapsed.toFixed(3)} s`));
  row.appendChild(html("td", report.pv.join(" "), "line"));
  const rows = $("depth-rows");
  rows.insertBefore(row, rows.firstChild);
}

// Forget a pending retry and a failure: the position changed, the engine may try again.
function resetEngine() {
  if (play.retry !== null) clearTimeout(play.retry);
  play.retry = null;
  play.halted = false;
}

async function think(purpose) {
  if (!play.view || play.searching) return;
  resetEngine();
  play.searching = true;
  // this search's ticket: a search's stream ends a little after its "done" event, by
  // which time the next search may have begun; only the current one may change the page
  const ticket = Symbol("search");
  play.ticket = ticket;
  const id = play.view.id;
  $("depth-rows").replaceChildren();
  $("score-label").textContent = purpose === "hint" ? "Score for you" : "Engine's score";
  setStatus(purpose === "hint" ? "Looking for a hint…" : "Engine thinking…", "thinking");
  updateButtons();
  try {
    await eventStream(`/api/sessions/${id}/search`, { purpose }, (kind, data) => {
      if (kind === "queued") {
        setStatus(`Waiting for the engine: ${ordinal(data.position)} in line…`, "thinking queued");
      } else if (kind === "started") {
        setStatus(purpose === "hint" ? "Looking for a hint…" : "Engine thinking…", "thinking");
      } else if (kind === "report") {
        showReport(data);
        addDepthRow(data);
      } else if (kind === "done") {
        if (play.ticket === ticket && data.state.id === (play.view && play.view.id)) {
          play.ticket = null;
          play.searching = false;
          showView(data.state);
        }
      } else if (kind === "error") {
        showError(data);
      }
    });
  } catch (error) {
    if (error.retryAfter && purpose === "move") {
      // the engine's line is full: ask again when the server says a place frees up
      play.retry = setTimeout(() => {
        play.retry = null;
        if (play.view && play.view.id === id) think("move");
      }, error.retryAfter * 1000);
    }
    showError(error.message);
  } finally {
    // still this search's ticket: the stream ended without a "done" for this game
    if (play.ticket === ticket) {
      play.ticket = null;
      play.searching = false;
      if (play.view && play.view.id === id) {
        // a failed engine move waits for the person (or the retry timer) to ask again
        play.halted = purpose === "move" && play.retry === null;
        const view = await api("GET", `/api/sessions/${id}`).catch(() => play.view);
        showView(view);
        if (play.retry !== null) setStatus("The engine is busy: asking again in a few seconds…", "thinking");
      }
    }
  }
}

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

function updateButtons() {
  const view = play.view;
  const idle = Boolean(view) && !play.searching && !play.pending;
  const yourTurn = idle && view.turn === "human";
  const resigned = Boolean(view) && view.resigned !== null;
  $("hint").disabled = !yourTurn || play.review !== null;
  $("engine-move").hidden = !(view && view.turn === "engine" && play.halted && !play.searching);
  $("undo").disabled = !idle || (!resigned && !view.moves.some((m) => m.by === "you"));
  $("resign").disabled = !idle || view.turn === "over";
  $("swap").disabled = !idle || view.turn === "over";
  for (const button of document.querySelectorAll("#legal button")) button.disabled = !yourTurn;
  $("board").classList.toggle("locked", boardLocked());
  updateReview();
}

function showView(view) {
  if (!play.view || play.view.id !== view.id || play.view.move_count !== view.move_count) boardState.selected = null;
  play.view = view;
  play.review = null;
  showPosition(view);
  const players = view.game.players;
  $("game-title").textContent = `${view.game.title} — you are ${players[view.human]}`;
  $("level-shown").textContent = `Engine level: ${levelText(view.think, view.depth)}`;
  $("game-summary").textContent = view.game.description || $("game-summary").textContent;
  if (view.analysis) showReport(view.analysis);
  drawBoard(view);
  drawLegal(view);
  drawMoves(view);
  const result = $("result");
  if (view.result) {
    const verdict = { win: "You win!", loss: "The engine wins.", draw: "Draw." }[view.result.for_you];
    result.textContent = `${verdict} ${view.result.text} (${view.result.score})`;
    result.dataset.outcome = view.result.for_you;
    result.hidden = false;
    setStatus("Game over.", "over");
  } else {
    result.hidden = true;
    delete result.dataset.outcome;
    const mover = players[view.to_move];
    if (view.turn === "human") {
      // the hint's report is the last one shown: its score is the person's with the hint
      const score = view.hint && view.analysis ? ` (${view.analysis.score_text})` : "";
      setStatus(view.hint ? `Your move (${mover}). Hint: ${view.hint}${score}` : `Your move (${mover}).`, "yours");
    } else if (play.halted) {
      setStatus(`Engine to move (${mover}): it could not; press “Ask the engine again”.`, "thinking");
    } else {
      setStatus(`Engine to move (${mover})…`, "thinking");
    }
  }
  updateButtons();
  if (view.turn === "engine" && !view.thinking && !play.searching && !play.halted && play.retry === null) {
    think("move");
  }
}

// ------------------------------------------------------------------ boards
// One SVG board family drawn from the game's BoardView (see zerosum.game.BoardView):
// square cells, intersections, columns that stones drop into, rows of counters. A move
// is one click on a target, or two: a piece, then one of its destinations (then a
// choice when several moves join the same two cells, as a pawn's promotions).

// Chess pieces are the Unicode chess symbols in DejaVu Sans (Debian's fonts-dejavu-core,
// under the Bitstream Vera / DejaVu free licence), the solid shapes for both sides,
// filled white or black; U+FE0E asks for the text form, never an emoji.
const PIECE_SETS = {
  chess: { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" },
};

const boardState = {
  selected: null, // the from-cell chosen for a two-click move
  drag: null, // a piece being dragged: { from, glyph, moved, start }
};

function boardLocked() {
  const view = play.view;
  return !view || play.review !== null || view.turn !== "human" || play.searching || play.pending;
}

function drawBoard(view) {
  const container = $("board");
  container.replaceChildren();
  $("promotion").hidden = true;
  const board = view.board;
  // rows of counters leave the scores to the text picture: both are shown
  $("board-text").hidden = Boolean(board) && board.kind !== "heaps";
  $("board-text").classList.toggle("small", Boolean(board));
  $("board-text").textContent = view.text;
  if (!board) return;
  if (boardState.selected !== null && !(String(boardState.selected) in board.moves)) boardState.selected = null;
  const { width: columns, height: rows } = board;
  const kind = board.kind;
  const longest = Math.max(0, ...board.ranks.map((r) => r.length));
  const cell = Math.max(kind === "heaps" ? 30 : 34, Math.min(72, Math.floor(520 / Math.max(columns, rows))));
  const left = board.ranks.length ? Math.max(18, longest * 8 + 10) : 6;
  const bottom = board.files.length ? 20 : 6;
  const width = left + columns * cell + 6;
  const height = 6 + rows * cell + bottom;
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: `grid kind-${kind}`,
    role: "img",
    "aria-label": `${view.game.title} board`,
  });
  const x0 = left;
  const y0 = 6;
  // a flipped board is turned half a circle: the last cell is drawn first
  const flipped = play.flipped;
  const place = (index) => (flipped ? board.cells.length - 1 - index : index);
  const centre = (index) => ({
    x: x0 + (place(index) % columns) * cell + cell / 2,
    y: y0 + Math.floor(place(index) / columns) * cell + cell / 2,
  });
  svg("rect", { x: x0 - 4, y: y0 - 4, width: columns * cell + 8, height: rows * cell + 8, class: `grid-back ${kind}`, rx: 6 }, picture);
  if (kind === "intersections") drawLines(picture, board, centre, cell);
  // coordinates: files under the board, ranks at its left
  board.files.forEach((label, column) => {
    const shown = flipped ? columns - 1 - column : column;
    const text = svg("text", { x: x0 + shown * cell + cell / 2, y: y0 + rows * cell + 15, class: "coord" }, picture);
    text.textContent = label;
  });
  board.ranks.forEach((label, row) => {
    const shown = flipped ? rows - 1 - row : row;
    const text = svg("text", { x: x0 - 8, y: y0 + shown * cell + cell / 2, class: "coord rank" }, picture);
    text.textContent = label;
  });
  const last = new Set(board.last);
  const line = new Set(board.line);
  const selected = boardState.selected;
  const destinations = selected === null ? {} : board.moves[String(selected)] || {};
  const players = view.game.players;
  for (let index = 0; index < board.cells.length; index += 1) {
    const x = x0 + (place(index) % columns) * cell;
    const y = y0 + Math.floor(place(index) / columns) * cell;
    const row = Math.floor(index / columns);
    // a chequered board has no gaps between its squares; other cells are tiles
    const gap = kind === "squares" && board.piece_set ? 0 : 1;
    const square = svg("rect", { x: x + gap, y: y + gap, width: cell - 2 * gap, height: cell - 2 * gap, rx: gap ? 5 : 0 }, picture);
    square.classList.add("cell");
    if (kind === "squares" && board.piece_set) square.classList.add((row + index) % 2 === 0 ? "light" : "dark");
    square.dataset.index = String(index);
    const target = board.targets[String(index)];
    if (target !== undefined) {
      square.classList.add("target");
      square.dataset.move = target;
      if (view.hint && target === view.hint) square.classList.add("hinted");
      const title = svg("title", {}, square);
      title.textContent = target;
    }
    if (String(index) in board.moves) {
      square.classList.add("from");
      if (view.hint && Object.values(board.moves[String(index)]).some((c) => c.includes(view.hint))) square.classList.add("hinted");
    }
    if (index === selected) square.classList.add("selected");
    if (String(index) in destinations) {
      square.classList.add("destination");
      square.dataset.moves = destinations[String(index)].join(" ");
    }
    if (last.has(index)) square.classList.add("last");
    if (line.has(index)) square.classList.add("win");
    square.addEventListener("click", () => clickCell(index));
    if (String(index) in board.moves) {
      square.addEventListener("pointerdown", (event) => startDrag(event, index, picture));
    }
    if (kind === "columns" && board.cells[index] === null) {
      const { x: cx, y: cy } = centre(index);
      svg("circle", { cx, cy, r: cell * 0.4, class: "hole" }, picture);
    }
    drawPiece(picture, board, index, centre(index), cell, players);
    if (String(index) in destinations) {
      const { x: cx, y: cy } = centre(index);
      const occupied = board.cells[index] !== null;
      svg("circle", { cx, cy, r: occupied ? cell * 0.46 : cell * 0.14, class: occupied ? "dot capture" : "dot" }, picture);
    }
  }
  if (board.line.length > 1) {
    const a = centre(board.line[0]);
    const b = centre(board.line[board.line.length - 1]);
    svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "win-line" }, picture);
  }
  container.appendChild(picture);
}

// Grid lines through the cells' centres (go, gomoku, xiangqi): the inner vertical lines
// stop at each break (xiangqi's river), and the extra segments are drawn on top.
function drawLines(picture, board, centre, cell) {
  const { width: columns, height: rows } = board;
  const group = svg("g", { class: "lines" }, picture);
  for (let row = 0; row < rows; row += 1) {
    const a = centre(row * columns);
    const b = centre(row * columns + columns - 1);
    svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, group);
  }
  const breaks = new Set(board.breaks);
  for (let column = 0; column < columns; column += 1) {
    const edge = column === 0 || column === columns - 1;
    let start = 0;
    for (let row = 0; row < rows; row += 1) {
      if (row === rows - 1 || (!edge && breaks.has(row))) {
        const a = centre(start * columns + column);
        const b = centre(row * columns + column);
        svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, group);
        start = row + 1;
      }
    }
  }
  for (const [from, to] of board.segments) {
    const a = centre(from);
    const b = centre(to);
    svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, group);
  }
  if (cell < 10) group.classList.add("thin");
}

function drawPiece(picture, board, index, { x, y }, cell, players) {
  const owner = board.cells[index];
  const name = board.pieces[index] || "";
  if (owner === null && !name) return;
  const set = PIECE_SETS[board.piece_set];
  if (set && owner !== null && set[name.toLowerCase()]) {
    const glyph = svg("text", { x, y, class: `piece p${owner}` }, picture);
    glyph.dataset.index = String(index);
    glyph.setAttribute("font-size", String(Math.round(cell * 0.8)));
    glyph.textContent = `${set[name.toLowerCase()]}\uFE0E`;
    glyph.dataset.piece = name;
    return;
  }
  if (owner === null) {
    // a neutral counter: a heap's stone or a pile, its name written on it
    svg("circle", { cx: x, cy: y, r: cell * 0.42, class: "counter" }, picture);
    const label = svg("text", { x, y, class: "counter-label" }, picture);
    label.setAttribute("font-size", String(Math.round(cell * (name.length > 2 ? 0.28 : 0.4))));
    label.textContent = name;
    return;
  }
  const player = players[owner];
  // a letter for games whose players are letters (X, O), but a dropped stone is a disc
  if (!name && player.length === 1 && board.kind !== "columns") {
    const glyph = svg("text", { x, y, class: `glyph p${owner}` }, picture);
    glyph.setAttribute("font-size", String(Math.round(cell * 0.62)));
    glyph.textContent = player;
    return;
  }
  // games whose players are colours (black, white) get stones of those colours
  svg("circle", { cx: x, cy: y, r: cell * 0.42, class: `stone p${owner} ${player}` }, picture);
  if (name) {
    const label = svg("text", { x, y, class: `stone-label p${owner}` }, picture);
    label.setAttribute("font-size", String(Math.round(cell * 0.45)));
    label.textContent = name;
  }
}

function clickCell(index) {
  const board = play.view && play.view.board;
  if (!board || boardLocked()) return;
  const key = String(index);
  const selected = boardState.selected;
  if (selected !== null) {
    const choices = (board.moves[String(selected)] || {})[key];
    if (choices) {
      chooseMove(choices);
      return;
    }
  }
  if (key in board.targets) {
    playMove(board.targets[key]);
    return;
  }
  boardState.selected = key in board.moves && selected !== index ? index : null;
  drawBoard(play.view);
}

// One move between two cells plays at once; several (a pawn's promotions) are offered.
function chooseMove(choices) {
  if (choices.length === 1) {
    boardState.selected = null;
    playMove(choices[0]);
    return;
  }
  const box = $("promotion");
  box.replaceChildren(html("span", "Choose:", "muted"));
  for (const text of choices) {
    const button = html("button", text, "move");
    button.type = "button";
    button.dataset.move = text;
    button.addEventListener("click", () => {
      boardState.selected = null;
      box.hidden = true;
      playMove(text);
    });
    box.appendChild(button);
  }
  const cancel = html("button", "cancel", "link-button");
  cancel.type = "button";
  cancel.addEventListener("click", () => {
    box.hidden = true;
    boardState.selected = null;
    drawBoard(play.view);
  });
  box.appendChild(cancel);
  box.hidden = false;
}

// Drag and drop: press on a piece, let go over one of its destinations. A press that
// does not move is a click (it selects the piece).
function startDrag(event, from, picture) {
  if (boardLocked() || event.button !== 0) return;
  const glyph = picture.querySelector(`.piece[data-index="${from}"]`);
  boardState.drag = { from, glyph, moved: false, start: { x: event.clientX, y: event.clientY } };
  const move = (e) => {
    const drag = boardState.drag;
    if (!drag) return;
    const dx = e.clientX - drag.start.x;
    const dy = e.clientY - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    drag.moved = true;
    if (drag.glyph) {
      const scale = picture.viewBox.baseVal.width / picture.getBoundingClientRect().width;
      drag.glyph.setAttribute("transform", `translate(${dx * scale} ${dy * scale})`);
      drag.glyph.classList.add("dragging");
    }
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    const drag = boardState.drag;
    boardState.drag = null;
    if (!drag || !drag.moved) return;
    if (drag.glyph) drag.glyph.removeAttribute("transform");
    const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el.classList && el.classList.contains("cell"));
    const choices = under ? (play.view.board.moves[String(from)] || {})[under.dataset.index] : null;
    if (choices) {
      boardState.selected = from;
      chooseMove(choices);
    } else {
      boardState.selected = null;
      drawBoard(play.view);
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

function drawLegal(view) {
  const legal = $("legal");
  legal.replaceChildren();
  legal.hidden = Boolean(view.board) || view.legal.length === 0;
  // the server lists only the first moves of a long list: the rest are typed
  $("move-form").hidden = Boolean(view.board) || !view.legal_cut;
  if (legal.hidden) return;
  legal.appendChild(html("span", "Moves:", "muted"));
  for (const text of view.legal) {
    const button = html("button", text, "move");
    button.type = "button";
    button.dataset.move = text;
    if (view.hint === text) button.classList.add("hinted");
    button.addEventListener("click", () => playMove(text));
    legal.appendChild(button);
  }
  if (view.legal_cut) {
    const more = view.legal_count - view.legal.length;
    legal.appendChild(html("span", `… and ${formatCount(more)} more: type one below`, "muted more"));
  }
}

function typedMove(event) {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text) return;
  $("move-input").value = "";
  playMove(text);
}

function drawMoves(view) {
  const list = $("move-list");
  list.replaceChildren();
  // the view lists the latest moves only: number them from where the list starts
  list.start = view.move_count - view.moves.length + 1;
  const players = view.game.players;
  view.moves.forEach((move, i) => {
    const item = html("li");
    item.dataset.ply = String(list.start + i);
    item.title = "show the position after this move";
    item.addEventListener("click", () => review(list.start + i));
    item.appendChild(html("span", players[move.player], `who p${move.player}`));
    item.appendChild(html("span", move.text, "text"));
    item.appendChild(html("span", move.by, "muted"));
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
}

// Step through the game: the board after the first `ply` moves, fetched from the server
// (which keeps every position); null or the last ply is the game itself again.
async function review(ply) {
  const view = play.view;
  if (!view) return;
  if (ply === null || ply >= view.move_count) {
    play.review = null;
    drawBoard(view);
    showPosition(view);
    updateButtons();
    return;
  }
  const wanted = Math.max(0, ply);
  try {
    const shown = await api("GET", `/api/sessions/${view.id}?ply=${wanted}`);
    if (play.view !== view) return; // the game moved on meanwhile
    play.review = wanted;
    boardState.selected = null;
    drawBoard(shown);
    showPosition(shown);
    updateButtons();
  } catch (error) {
    showError(error.message);
  }
}

function updateReview() {
  const view = play.view;
  const total = view ? view.move_count : 0;
  const ply = play.review === null ? total : play.review;
  $("review-first").disabled = !view || ply === 0;
  $("review-back").disabled = !view || ply === 0;
  $("review-next").disabled = !view || ply >= total;
  $("review-last").disabled = !view || ply >= total;
  $("review-text").textContent = play.review === null ? "" : `Reviewing: after move ${ply} of ${total}`;
  for (const item of document.querySelectorAll("#move-list li")) {
    item.classList.toggle("current", play.review !== null && Number(item.dataset.ply) === play.review);
  }
}

function reviewStep(delta) {
  const view = play.view;
  if (!view) return;
  const ply = play.review === null ? view.move_count : play.review;
  review(ply + delta);
}

// The position in the game's notation (FEN for chess) and the moves, ready to copy.
function showPosition(view) {
  $("position-text").value = view.position || "";
  $("position-row").hidden = !view.position;
  const cut = view.move_count > view.moves.length ? "… " : "";
  $("moves-text").value = cut + view.moves.map((m) => m.text).join(" ");
}

async function copyField(id) {
  const field = $(id);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    setStatus("Copied.", "yours");
  } catch (_) {
    setStatus("Selected: press Ctrl+C to copy.", "");
  }
}

// ================================================================== lab

const lab = {
  data: null,
  nodes: new Map(), // id -> node (trace nodes and pruned "ghost" nodes)
  order: [], // every node drawn, in layout order
  step: 0,
  timer: null,
  uploadLimit: 0,
};

function labSource() {
  return document.querySelector("input[name=source]:checked").value;
}

function showSource() {
  const source = labSource();
  for (const block of document.querySelectorAll(".source")) {
    block.hidden = block.dataset.source !== source;
  }
}

async function loadLab() {
  const data = await api("GET", "/api/lab");
  const select = $("lab-example");
  select.replaceChildren();
  for (const name of data.examples) {
    const option = html("option", name);
    option.value = name;
    select.appendChild(option);
  }
  $("lab-depth").max = String(data.max_depth);
  lab.uploadLimit = data.upload_limit;
}

async function runLab(event) {
  if (event) event.preventDefault();
  clearError();
  stopPlaying();
  const body = { algorithm: $("lab-algorithm").value };
  const depth = $("lab-depth").value.trim();
  if (depth) body.depth = Number(depth);
  const source = labSource();
  try {
    if (source === "example") body.example = $("lab-example").value;
    else if (source === "tree") body.tree = $("lab-json").value;
    else {
      body.game = $("lab-game").value.trim();
      const upload = await readUpload($("lab-file"), lab.uploadLimit);
      if (upload) body.upload = upload;
      const position = $("lab-position").value.trim();
      if (position) body.position = position;
      const moves = $("lab-moves").value.trim();
      if (moves) body.moves = moves.split(/\s+/);
    }
    const data = await api("POST", "/api/lab", body);
    // a file cannot travel in a link: a search of an uploaded game has none
    lab.request = body.upload ? null : body;
    loadTrace(data);
  } catch (error) {
    $("lab-view").hidden = true;
    showError(error.message);
  }
}

function loadTrace(data) {
  lab.data = data;
  lab.nodes = new Map();
  const trace = data.trace;
  for (const node of trace.nodes) {
    lab.nodes.set(String(node.id), { ...node, key: String(node.id), children: [], ghost: false });
  }
  for (const node of trace.nodes) {
    if (node.parent !== null) lab.nodes.get(String(node.parent)).children.push(lab.nodes.get(String(node.id)));
  }
  // skipped branches hang after the visited children of the node that cut them
  let ghostCount = 0;
  const addGhost = (branch, parent, depth, cutBy) => {
    const key = `g${ghostCount++}`;
    const ghost = {
      key, move: branch.label, depth, ghost: true, hidden: branch.hidden, cutBy, parentKey: parent.key, children: [],
    };
    lab.nodes.set(key, ghost);
    parent.children.push(ghost);
    for (const child of branch.children) addGhost(child, ghost, depth + 1, cutBy);
  };
  for (const [id, branches] of Object.entries(data.pruned)) {
    const cutter = lab.nodes.get(id);
    for (const branch of branches) addGhost(branch, cutter, cutter.depth + 1, cutter.key);
  }
  layout(lab.nodes.get("0"));
  $("lab-title").textContent = data.title;
  $("lab-description").textContent = data.description || "";
  $("lab-position-text").hidden = !data.position;
  $("lab-position-text").textContent = data.position || "";
  const rootForm = trace.orientation === "root";
  const maxPlayer = lab.nodes.get("0").player;
  for (const player of [0, 1]) {
    const role = player === maxPlayer ? "MAX" : "MIN";
    $(`legend-p${player}`).textContent = rootForm ? `${role} (${data.players[player]})` : data.players[player];
  }
  $("lab-orientation").textContent = rootForm
    ? "values and windows for MAX, the player at the root"
    : "values and windows for the side to move at each node";
  $("lab-count-label").textContent = `Nodes visited (${trace.algorithm})`;
  $("lab-minimax").textContent =
    data.minimax_nodes === null ? `more than ${formatCount(data.minimax_limit)}` : formatCount(data.minimax_nodes);
  $("step-range").max = String(data.events.length);
  $("lab-view").hidden = false;
  drawTree();
  setStep(0);
}

// Leaves take consecutive columns in drawing order; a parent sits over its children.
function layout(root) {
  let column = 0;
  lab.order = [];
  const place = (node) => {
    lab.order.push(node);
    if (node.children.length === 0) {
      node.x = column;
      column += 1;
    } else {
      for (const child of node.children) place(child);
      node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2;
    }
  };
  place(root);
  lab.columns = column;
  lab.depth = Math.max(...lab.order.map((n) => n.depth));
}

const GAP_X = 66;
const GAP_Y = 112;
const MARGIN = 44;
const RADIUS = 17;

function nodePosition(node) {
  return { x: MARGIN + node.x * GAP_X, y: MARGIN + node.depth * GAP_Y };
}

function drawTree() {
  const picture = $("lab-tree");
  picture.replaceChildren();
  const width = MARGIN * 2 + Math.max(0, lab.columns - 1) * GAP_X;
  const height = MARGIN * 2 + lab.depth * GAP_Y + 20;
  picture.setAttribute("viewBox", `0 0 ${width} ${height}`);
  picture.setAttribute("width", String(width));
  picture.setAttribute("height", String(height));
  const edges = svg("g", { class: "edges" }, picture);
  const nodes = svg("g", { class: "nodes" }, picture);
  const rootPlayer = lab.nodes.get("0").player;
  for (const node of lab.order) {
    const { x, y } = nodePosition(node);
    node.elements = {};
    if (node.key !== "0") {
      const parent = lab.nodes.get(node.ghost ? node.parentKey : String(node.parent));
      const from = nodePosition(parent);
      const edge = svg("line", { x1: from.x, y1: from.y + RADIUS, x2: x, y2: y - RADIUS, class: "edge" }, edges);
      // the move's label sits near the child, clear of the parent's window and cut-off
      const along = 0.7;
      const labelX = from.x + (x - from.x) * along + (x >= from.x ? 7 : -7);
      const labelY = from.y + (y - from.y) * along;
      const label = svg("text", { x: labelX, y: labelY, class: "edge-label" }, edges);
      label.classList.add(x >= from.x ? "right" : "left");
      label.textContent = node.move;
      node.elements.edge = edge;
      node.elements.edgeLabel = label;
    }
    const group = svg("g", { class: "node", transform: `translate(${x} ${y})` }, nodes);
    group.dataset.key = node.key;
    // players alternate, so a skipped node's player follows from its depth
    const player = node.ghost ? (rootPlayer + node.depth) % 2 : node.player;
    let shape;
    if (player === 0) {
      shape = svg("rect", { x: -RADIUS, y: -RADIUS, width: RADIUS * 2, height: RADIUS * 2, rx: 4 }, group);
    } else {
      shape = svg("circle", { r: RADIUS }, group);
    }
    shape.classList.add("shape", node.ghost ? "ghost" : `p${player}`);
    if (node.ghost) group.classList.add("pruned");
    const value = svg("text", { y: 4, class: "value" }, group);
    const window = svg("text", { y: RADIUS + 14, class: "window" }, group);
    node.elements.group = group;
    node.elements.value = value;
    node.elements.window = window;
    if (node.ghost) {
      value.textContent = node.hidden ? `+${node.hidden}` : node.hidden === null ? "…" : "";
      const title = svg("title", {}, group);
      title.textContent = node.hidden === null ? "a branch too big to count" : node.hidden ? `a branch of ${node.hidden} nodes` : "pruned";
    }
    if (!node.ghost && node.cutoff) {
      const cut = svg("text", { y: RADIUS + 28, class: "cut-reason" }, group);
      cut.textContent = `✂ ${showScore(node.cutoff.value)} ${node.cutoff.bound === "beta" ? "≥ β" : "≤ α"}=${showScore(node.cutoff.bound === "beta" ? node.cutoff.beta : node.cutoff.alpha)}`;
      node.elements.cut = cut;
    }
  }
}

// The page's picture after the first `step` events: what was entered, left and cut.
function stateAt(step) {
  const entered = new Set();
  const left = new Set();
  const cut = new Set();
  let current = null;
  let visited = 0;
  let pruned = 0;
  let change = ""; // how the last event moved its parent's window, in words
  const windows = new Map(); // each node's window as the search has moved it so far
  const events = lab.data.events;
  for (let i = 0; i < step; i += 1) {
    const event = events[i];
    const key = String(event.node);
    change = "";
    if (event.kind === "enter") {
      entered.add(key);
      visited += 1;
      const node = lab.nodes.get(key);
      if (node.window) windows.set(key, [...node.window]);
    } else if (event.kind === "leave") {
      left.add(key);
      change = moveWindow(lab.nodes.get(key), windows);
    } else {
      cut.add(key);
      for (const move of lab.nodes.get(key).cutoff.moves) pruned += move.size === null ? 0 : move.size;
    }
    current = key;
  }
  return { entered, left, cut, current, visited, pruned, change, windows };
}

// A child's value moves its parent's window as alpha-beta does: at a MAX node (in
// negamax form, every node, with the value negated) α rises to a better value; at a
// MIN node β falls. Returns the change in words ("α rises to 100 at A"), or "".
function moveWindow(child, windows) {
  if (child.parent === null || child.parent === undefined) return "";
  const parentKey = String(child.parent);
  const window = windows.get(parentKey);
  if (!window) return "";
  const parent = lab.nodes.get(parentKey);
  const rootForm = lab.data.trace.orientation === "root";
  const where = parent.move === null ? "the root" : parent.move;
  if (!rootForm) {
    const value = -scoreNumber(child.value);
    if (value <= scoreNumber(window[0])) return "";
    window[0] = value;
    return `α rises to ${showScore(value)} at ${where}`;
  }
  const value = scoreNumber(child.value);
  const maximising = parent.player === lab.nodes.get("0").player;
  if (maximising && value > scoreNumber(window[0])) {
    window[0] = value;
    return `α rises to ${showScore(value)} at ${where}`;
  }
  if (!maximising && value < scoreNumber(window[1])) {
    window[1] = value;
    return `β falls to ${showScore(value)} at ${where}`;
  }
  return "";
}

function scoreNumber(value) {
  if (value === "+inf") return Infinity;
  if (value === "-inf") return -Infinity;
  return Number(value);
}

// A node's value as what the search learnt: exact strictly inside the window it was
// searched with, but only a bound on or outside it (a cut-off proves "at least", a
// node whose every move failed low only "at most").
function valueText(node) {
  const value = showScore(node.value);
  if (node.leaf || !node.window) return value;
  const number = scoreNumber(node.value);
  if (number <= scoreNumber(node.window[0])) return `≤ ${value}`;
  if (number >= scoreNumber(node.window[1])) return `≥ ${value}`;
  return value;
}

function describeEvent(step) {
  if (step === 0) return "Press ▶ to step through the search, one event at a time.";
  const event = lab.data.events[step - 1];
  const node = lab.nodes.get(String(event.node));
  const name = node.move === null ? "the root" : node.move;
  if (event.kind === "enter") {
    const window = node.window ? ` with window α=${showScore(node.window[0])}, β=${showScore(node.window[1])}` : "";
    return `Enter ${name}${window}.`;
  }
  if (event.kind === "cut") {
    const moves = node.cutoff.moves.map((m) => m.label).join(", ");
    const reason = node.cutoff.bound === "beta"
      ? `${showScore(node.cutoff.value)} ≥ β=${showScore(node.cutoff.beta)}`
      : `${showScore(node.cutoff.value)} ≤ α=${showScore(node.cutoff.alpha)}`;
    return `Cut-off at ${name}: ${reason}, so ${moves} ${node.cutoff.moves.length === 1 ? "is" : "are"} never visited.`;
  }
  const subject = node.move === null ? "The root" : name;
  const text = valueText(node);
  // outside its window a value is a bound: a cut-off stopped the search there, or no
  // move came inside the window
  const why = node.cutoff ? "the cut-off made the rest unnecessary" : "no move came inside its window";
  if (text.startsWith("≥")) return `${subject} is worth at least ${showScore(node.value)}: ${why}.`;
  if (text.startsWith("≤")) return `${subject} is worth at most ${showScore(node.value)}: ${why}.`;
  return `${subject} ${node.leaf ? "is a leaf worth" : "is worth"} ${text}.`;
}

function setStep(step) {
  const total = lab.data.events.length;
  lab.step = Math.max(0, Math.min(step, total));
  const view = stateAt(lab.step);
  for (const node of lab.order) {
    const shown = node.ghost ? view.cut.has(node.cutBy) : view.entered.has(node.key);
    const { group, value, window, edge, edgeLabel, cut } = node.elements;
    group.classList.toggle("hidden", !shown);
    if (edge) {
      edge.classList.toggle("hidden", !shown);
      edge.classList.toggle("pruned-edge", node.ghost);
      edgeLabel.classList.toggle("hidden", !shown);
    }
    if (node.ghost) continue;
    group.classList.toggle("current", view.current === node.key);
    group.classList.toggle("done", view.left.has(node.key));
    value.textContent = view.left.has(node.key) ? valueText(node) : shown ? "?" : "";
    value.classList.toggle("long", value.textContent.length > 5);
    const bounds = view.windows.get(node.key) || node.window;
    window.textContent = bounds && shown ? `[${showScore(bounds[0])}, ${showScore(bounds[1])}]` : "";
    if (cut) cut.classList.toggle("hidden", !view.cut.has(node.key));
  }
  $("lab-value").textContent = view.left.has("0") ? showScore(lab.data.trace.root_value) : "?";
  $("lab-count").textContent = `${view.visited} of ${lab.data.trace.stats.nodes}`;
  $("lab-pruned").textContent = String(view.pruned);
  $("step-count").textContent = `${lab.step} / ${total}`;
  $("step-range").value = String(lab.step);
  let text = describeEvent(lab.step);
  if (view.change) text += ` So ${view.change}.`;
  if (lab.step === total) {
    const line = lab.data.trace.best_line.join(" › ");
    text += ` Done: value ${showScore(lab.data.trace.root_value)}${line ? `, best line ${line}` : ""}.`;
  }
  $("step-text").textContent = text;
  const link = labLink(lab.step);
  $("lab-link").hidden = !link;
  if (link) {
    $("lab-link").href = link;
    history.replaceState(null, "", link);
  }
  $("step-back").disabled = $("step-first").disabled = lab.step === 0;
  $("step-next").disabled = $("step-last").disabled = lab.step === total;
  const current = view.current && lab.nodes.get(view.current);
  if (current && current.elements) {
    current.elements.group.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

function stopPlaying() {
  if (lab.timer !== null) {
    clearInterval(lab.timer);
    lab.timer = null;
  }
  $("step-play").textContent = "▶ play";
}

function togglePlaying() {
  if (!lab.data) return;
  if (lab.timer !== null) {
    stopPlaying();
    return;
  }
  if (lab.step >= lab.data.events.length) setStep(0);
  $("step-play").textContent = "⏸ pause";
  lab.timer = setInterval(() => {
    if (lab.step >= lab.data.events.length) stopPlaying();
    else setStep(lab.step + 1);
  }, 450);
}

// ================================================================== start

function bind() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  }
  $("error-close").addEventListener("click", clearError);
  $("setup").addEventListener("submit", newGame);
  $("game-select").addEventListener("change", describeGame);
  $("hint").addEventListener("click", () => think("hint"));
  $("engine-move").addEventListener("click", () => think("move"));
  $("move-form").addEventListener("submit", typedMove);
  // a page closed or reloaded ends its game, which no longer counts against the browser
  window.addEventListener("pagehide", () => {
    if (play.view) fetch(`/api/sessions/${play.view.id}`, { method: "DELETE", keepalive: true });
  });
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", () => {
    if (window.confirm("Resign this game?")) change("resign");
  });
  $("swap").addEventListener("click", async () => {
    await change("swap");
    const board = play.view && play.view.board;
    if (board && board.piece_set) {
      play.flipped = play.view.human === 1;
      review(play.review);
    }
  });
  $("flip").addEventListener("click", () => {
    play.flipped = !play.flipped;
    if (play.view) review(play.review);
  });
  $("level-select").addEventListener("change", () => {
    const level = chosenLevel();
    if (level) $("think-input").value = String(level.seconds);
  });
  $("think-input").addEventListener("input", () => {
    // a time typed by hand is a custom level: no depth limit
    const level = chosenLevel();
    if (!level || level.seconds !== Number($("think-input").value)) $("level-select").value = "";
  });
  $("review-first").addEventListener("click", () => review(0));
  $("review-back").addEventListener("click", () => reviewStep(-1));
  $("review-next").addEventListener("click", () => reviewStep(1));
  $("review-last").addEventListener("click", () => review(null));
  $("copy-position").addEventListener("click", () => copyField("position-text"));
  $("copy-moves").addEventListener("click", () => copyField("moves-text"));
  $("lab-form").addEventListener("submit", runLab);
  for (const radio of document.querySelectorAll("input[name=source]")) {
    radio.addEventListener("change", showSource);
  }
  $("step-first").addEventListener("click", () => { stopPlaying(); setStep(0); });
  $("step-back").addEventListener("click", () => { stopPlaying(); setStep(lab.step - 1); });
  $("step-next").addEventListener("click", () => { stopPlaying(); setStep(lab.step + 1); });
  $("step-last").addEventListener("click", () => { stopPlaying(); setStep(lab.data.events.length); });
  $("step-play").addEventListener("click", togglePlaying);
  $("step-range").addEventListener("input", (event) => { stopPlaying(); setStep(Number(event.target.value)); });
  document.addEventListener("keydown", (event) => {
    if ($("panel-lab").hidden || !lab.data) return;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves) {
      stopPlaying();
      setStep(lab.step + moves[event.key]);
    } else if (event.key === "Home") {
      stopPlaying();
      setStep(0);
    } else if (event.key === "End") {
      stopPlaying();
      setStep(lab.data.events.length);
    } else if (event.key === " ") {
      event.preventDefault();
      togglePlaying();
    }
  });
}

// A link to a search and one of its steps: the lab's request and the step, in the
// address's fragment (it never reaches the server's logs).
function labLink(step) {
  if (!lab.request) return "";
  return `#lab=${encodeURIComponent(JSON.stringify({ ...lab.request, step }))}`;
}

async function openLink() {
  if (!location.hash.startsWith("#lab=")) return;
  let request;
  try {
    request = JSON.parse(decodeURIComponent(location.hash.slice(5)));
  } catch (_) {
    showError("This link's search could not be read: it may have been cut short.");
    return;
  }
  const { step, ...body } = request;
  showPanel("lab");
  const source = body.example ? "example" : body.tree ? "tree" : "game";
  document.querySelector(`input[name=source][value=${source}]`).checked = true;
  showSource();
  if (body.example) $("lab-example").value = body.example;
  if (body.tree) $("lab-json").value = body.tree;
  if (body.game) $("lab-game").value = body.game;
  $("lab-position").value = body.position || "";
  $("lab-moves").value = (body.moves || []).join(" ");
  if (body.algorithm) $("lab-algorithm").value = body.algorithm;
  $("lab-depth").value = body.depth ? String(body.depth) : "";
  try {
    const data = await api("POST", "/api/lab", body);
    lab.request = body;
    loadTrace(data);
    setStep(Number(step) || 0);
  } catch (error) {
    showError(error.message);
  }
}

async function start() {
  bind();
  try {
    await Promise.all([loadGames(), loadLab()]);
    await openLink();
    document.body.dataset.ready = "true";
  } catch (error) {
    showError(`The server did not answer: ${error.message}`);
  }
}

start();
