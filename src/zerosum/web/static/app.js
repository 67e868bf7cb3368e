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
    // a board of pieces (chess, xiangqi) faces the person: black sees its own side at the bottom
    const sided = view.board && (view.board.piece_set || view.game.name === "xiangqi");
    play.flipped = view.human === 1 && Boolean(sided);
    clearAnalysis();
    resetEngine();
    showView(view);
  } catch (error) {
    showError(error.message);
  }
}

// The person's move: the board stays locked from the click until the answer, so a
// second click cannot reach the server while the first is on its way. Returns whether
// the move was played.
async function playMove(text) {
  if (!play.view || boardLocked()) return false;
  boardState.selected = null;
  return change("move", { move: text });
}

// Send one change of the game (a move, undo, resign, swap) and show the answer;
// returns whether the server took it (a refusal is shown and leaves the game as it was).
async function change(action, body) {
  if (!play.view || play.pending) return false;
  clearError();
  play.pending = true;
  updateButtons();
  try {
    const view = await api("POST", `/api/sessions/${play.view.id}/${action}`, body);
    play.pending = false;
    resetEngine();
    showView(view);
    return true;
  } catch (error) {
    showError(error.message);
    return false;
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
  // the text box stays usable while the engine thinks (typing ahead keeps its focus);
  // only its button waits for the person's turn
  $("move-play").disabled = boardLocked();
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
// filled white or black; U+FE0E asks for the text form, never an emoji. Xiangqi's pieces
// are their Chinese characters, in the system's CJK font (WenQuanYi Micro Hei from
// Debian's fonts-wqy-microhei, Apache 2.0 or GPLv3 with the font exception).
const PIECE_SETS = {
  chess: { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" },
};

const boardState = {
  selected: null, // the from-cell chosen for a two-click move
  drag: null, // a piece being dragged: { from, glyph, moved, start }
  shown: null, // the view whose board is drawn (the game, or a position under review)
  geometry: null, // where the drawn board's cells are: { x0, y0, cell, columns, place }
  cursor: null, // the cell the keyboard cursor is on
  keyboard: false, // the board is being used from the keyboard: show the cursor
  pointerAt: -Infinity, // when the board was last pressed with a pointer
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
  boardState.shown = view;
  boardState.geometry = null;
  if (!board) {
    drawCursor();
    return;
  }
  if (boardState.cursor !== null && boardState.cursor >= board.cells.length) boardState.cursor = null;
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
  if (view.game.name === "xiangqi") drawRiver(picture, board, centre, cell);
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
  const forbidden = new Set(board.forbidden || []);
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
    if (forbidden.has(index)) {
      // a cell the rules deny the side to move (renju): crossed out, its reason named
      square.classList.add("forbidden");
      const title = svg("title", {}, square);
      title.textContent = "forbidden";
      const { x: cx, y: cy } = centre(index);
      const arm = cell * 0.18;
      svg("path", { d: `M${cx - arm} ${cy - arm}L${cx + arm} ${cy + arm}M${cx - arm} ${cy + arm}L${cx + arm} ${cy - arm}`, class: "forbidden-mark" }, picture);
    }
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
  boardState.geometry = { x0, y0, cell, columns, place };
  drawCursor();
}

// ------------------------------------------------------------------ keyboard play
// The board takes the focus (Tab, or a click): the arrow keys move a cursor over its
// cells, as drawn (a flipped board flips the arrows too), and Enter or space does what
// a click on the cell does. The cursor shows only while the keyboard is in use.

function cellName(board, index) {
  const column = index % board.width;
  const row = Math.floor(index / board.width);
  const name = `${board.files[column] || ""}${board.ranks[row] || ""}`;
  return name || `cell ${index + 1}`;
}

function cursorText(board, index) {
  const key = String(index);
  const name = cellName(board, index);
  const selected = boardState.selected;
  const destinations = selected === null ? {} : board.moves[String(selected)] || {};
  if (index === selected) return `${name}: picked up; Enter or Escape puts it back`;
  if (key in destinations) return `${name}: Enter moves ${cellName(board, selected)} here`;
  if (key in board.targets) return `${name}: Enter plays ${board.targets[key]}`;
  if (key in board.moves) return `${name}: Enter picks this piece up`;
  return name;
}

function drawCursor() {
  const boardBox = $("board");
  const picture = boardBox.querySelector("svg");
  const old = picture && picture.querySelector(".cursor");
  if (old) old.remove();
  const view = boardState.shown;
  const board = view && view.board;
  const geometry = boardState.geometry;
  const active = boardState.keyboard && document.activeElement === boardBox;
  if (!picture || !board || !geometry || !active || boardState.cursor === null) {
    $("board-cursor").textContent = "";
    return;
  }
  const { x0, y0, cell, columns, place } = geometry;
  const at = place(boardState.cursor);
  const x = x0 + (at % columns) * cell;
  const y = y0 + Math.floor(at / columns) * cell;
  svg("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 4, class: "cursor" }, picture);
  $("board-cursor").textContent = `Cursor: ${cursorText(board, boardState.cursor)}`;
}

function startCursor(board) {
  if (boardState.selected !== null) return boardState.selected;
  return Math.floor(board.height / 2) * board.width + Math.floor(board.width / 2);
}

function boardKey(event) {
  const view = boardState.shown;
  const board = view && view.board;
  if (!board) return;
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const first = boardState.cursor === null || !boardState.keyboard;
  boardState.keyboard = true;
  if (boardState.cursor === null) boardState.cursor = startCursor(board);
  if (event.key in arrows) {
    event.preventDefault();
    if (first) {
      drawCursor(); // the first key only shows where the cursor is
      return;
    }
    const sign = play.flipped ? -1 : 1;
    const [dx, dy] = arrows[event.key].map((d) => d * sign);
    const column = Math.min(board.width - 1, Math.max(0, (boardState.cursor % board.width) + dx));
    const row = Math.min(board.height - 1, Math.max(0, Math.floor(boardState.cursor / board.width) + dy));
    boardState.cursor = row * board.width + column;
    drawCursor();
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    if (first) drawCursor();
    else clickCell(boardState.cursor);
  } else if (event.key === "Escape" && boardState.selected !== null) {
    boardState.selected = null;
    drawBoard(view);
  }
}

// Xiangqi's river is named in its gap, as on a real board: 楚河 on one half, 漢界 on
// the other (upright on a flipped board too).
function drawRiver(picture, board, centre, cell) {
  for (const row of board.breaks) {
    const above = centre(row * board.width);
    const below = centre((row + 1) * board.width + board.width - 1);
    const y = (above.y + below.y) / 2;
    const halves = [Math.min(above.x, below.x), Math.max(above.x, below.x)];
    const width = halves[1] - halves[0];
    ["楚 河", "漢 界"].forEach((name, half) => {
      const x = halves[0] + width * (half === 0 ? 0.25 : 0.75);
      const label = svg("text", { x, y, class: "river", fill: "#8a6a43", "text-anchor": "middle", "dominant-baseline": "central", "pointer-events": "none" }, picture);
      label.setAttribute("font-size", String(Math.round(cell * 0.42)));
      label.textContent = name;
    });
  }
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
  boardState.cursor = index;
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
  // any move may be typed in the game's notation: the server reads it (its errors are
  // shown, the game stays as it was)
  $("move-form").hidden = view.turn === "over";
  $("move-input").placeholder = view.legal.length ? `e.g. ${view.legal[0]}` : "";
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

async function typedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || boardLocked()) return;
  // a refused move stays in the box, selected, to be corrected
  if (await playMove(text)) input.value = "";
  else input.select();
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
  request: null, // the search shown, as a link carries it (no uploaded file)
  ticket: null, // the latest search asked for: only its answer is shown
  folded: new Set(), // the nodes whose subtrees are folded away
  zoom: 1,
  size: { width: 0, height: 0 }, // the tree's picture at 100%
};

function labSource() {
  return document.querySelector("input[name=source]:checked").value;
}

function showSource() {
  const source = labSource();
  for (const block of document.querySelectorAll(".source")) {
    block.hidden = block.dataset.source !== source;
  }
  if (source === "tree") refreshEditor();
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

// The search the form describes, as the server takes it.
async function labBody() {
  const body = { algorithm: $("lab-algorithm").value };
  const depth = $("lab-depth").value.trim();
  if (depth) body.depth = Number(depth);
  const order = $("lab-order").value;
  if (order !== "original") body.order = order;
  const source = labSource();
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
  return body;
}

// Search what the form says and show it from step `step` (a function of the old
// search's step and length, or the start).
async function runLab(event, step = null) {
  if (event) event.preventDefault();
  clearError();
  stopPlaying();
  const ticket = Symbol("lab");
  lab.ticket = ticket;
  try {
    const body = await labBody();
    const data = await api("POST", "/api/lab", body);
    if (lab.ticket !== ticket) return; // a later search was asked for meanwhile
    const before = lab.data ? { step: lab.step, total: lab.data.events.length } : null;
    // a file cannot travel in a link: a search of an uploaded game has none
    lab.request = body.upload ? null : body;
    // a search again after an edit keeps the zoom, the step and the page where they were
    loadTrace(data, Boolean(step && before));
    if (step && before) setStep(step(before, data.events.length), false);
    loadCompare(body);
  } catch (error) {
    if (lab.ticket !== ticket) return;
    $("lab-view").hidden = true;
    $("lab-compare").hidden = true;
    showError(error.message);
  }
}

function loadTrace(data, keepZoom = false) {
  lab.data = data;
  lab.nodes = new Map();
  lab.folded = new Set();
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
  $("lab-edit").hidden = !data.tree;
  $("lab-view").hidden = false;
  layout();
  if (!keepZoom) lab.zoom = null; // fitted to the page once the tree is drawn
  drawTree();
  setStep(0);
}

// Leaves take consecutive columns in drawing order; a parent sits over its children.
// A folded node is drawn as a leaf: its subtree is left out.
function layoutTree(root, folded) {
  let column = 0;
  const order = [];
  const place = (node) => {
    order.push(node);
    const children = folded.has(node.key) ? [] : node.children;
    if (children.length === 0) {
      node.x = column;
      column += 1;
    } else {
      for (const child of children) place(child);
      node.x = (children[0].x + children[children.length - 1].x) / 2;
    }
  };
  place(root);
  return { order, columns: column, depth: Math.max(...order.map((n) => n.depth)) };
}

function layout() {
  const placed = layoutTree(lab.nodes.get("0"), lab.folded);
  lab.order = placed.order;
  lab.columns = placed.columns;
  lab.depth = placed.depth;
}

function countBelow(node) {
  let count = 0;
  const stack = [...node.children];
  while (stack.length) {
    const next = stack.pop();
    count += 1;
    stack.push(...next.children);
  }
  return count;
}

function toggleFold(node) {
  if (lab.folded.has(node.key)) lab.folded.delete(node.key);
  else lab.folded.add(node.key);
  layout();
  drawTree();
  setStep(lab.step);
}

function unfoldAll() {
  lab.folded = new Set();
  layout();
  drawTree();
  setStep(lab.step);
}

const GAP_X = 66;
const GAP_Y = 112;
const MARGIN = 44;
const RADIUS = 17;
const ZOOM_LIMITS = [0.02, 3];

function nodePosition(node) {
  return { x: MARGIN + node.x * GAP_X, y: MARGIN + node.depth * GAP_Y };
}

function treeSize(columns, depth) {
  return { width: MARGIN * 2 + Math.max(0, columns - 1) * GAP_X, height: MARGIN * 2 + depth * GAP_Y + 20 };
}

// The zoom that makes the tree as wide as its frame.
function fittingZoom() {
  const room = $("tree-scroll").clientWidth - 4;
  return Math.min(ZOOM_LIMITS[1], Math.max(ZOOM_LIMITS[0], room / lab.size.width));
}

function setZoom(zoom) {
  lab.zoom = Math.min(ZOOM_LIMITS[1], Math.max(ZOOM_LIMITS[0], zoom));
  const picture = $("lab-tree");
  picture.setAttribute("width", String(Math.round(lab.size.width * lab.zoom)));
  picture.setAttribute("height", String(Math.round(lab.size.height * lab.zoom)));
  $("zoom-text").textContent = `${Math.round(lab.zoom * 100)}%`;
}

// One edge and its move's label, from a parent to a child.
function drawEdge(group, from, to, move) {
  const edge = svg("line", { x1: from.x, y1: from.y + RADIUS, x2: to.x, y2: to.y - RADIUS, class: "edge" }, group);
  // the move's label sits near the child, clear of the parent's window and cut-off
  const along = 0.7;
  const labelX = from.x + (to.x - from.x) * along + (to.x >= from.x ? 7 : -7);
  const labelY = from.y + (to.y - from.y) * along;
  const label = svg("text", { x: labelX, y: labelY, class: "edge-label" }, group);
  label.classList.add(to.x >= from.x ? "right" : "left");
  label.textContent = move;
  return { edge, label };
}

// A node's shape: a square for the first player, a circle for the second.
function drawShape(group, player, kind) {
  const shape = player === 0
    ? svg("rect", { x: -RADIUS, y: -RADIUS, width: RADIUS * 2, height: RADIUS * 2, rx: 4 }, group)
    : svg("circle", { r: RADIUS }, group);
  shape.classList.add("shape", kind);
  return shape;
}

function cutReason(cutoff) {
  const beta = cutoff.bound === "beta";
  return `✂ ${showScore(cutoff.value)} ${beta ? "≥ β" : "≤ α"}=${showScore(beta ? cutoff.beta : cutoff.alpha)}`;
}

function drawTree() {
  const picture = $("lab-tree");
  picture.replaceChildren();
  lab.size = treeSize(lab.columns, lab.depth);
  picture.setAttribute("viewBox", `0 0 ${lab.size.width} ${lab.size.height}`);
  setZoom(lab.zoom === null ? Math.min(1.5, Math.max(0.6, fittingZoom())) : lab.zoom);
  for (const node of lab.nodes.values()) node.elements = null;
  const edges = svg("g", { class: "edges" }, picture);
  const nodes = svg("g", { class: "nodes" }, picture);
  const rootPlayer = lab.nodes.get("0").player;
  for (const node of lab.order) {
    const { x, y } = nodePosition(node);
    node.elements = {};
    if (node.key !== "0") {
      const parent = lab.nodes.get(node.ghost ? node.parentKey : String(node.parent));
      const { edge, label } = drawEdge(edges, nodePosition(parent), { x, y }, node.move);
      node.elements.edge = edge;
      node.elements.edgeLabel = label;
    }
    const group = svg("g", { class: "node", transform: `translate(${x} ${y})` }, nodes);
    group.dataset.key = node.key;
    // players alternate, so a skipped node's player follows from its depth
    const player = node.ghost ? (rootPlayer + node.depth) % 2 : node.player;
    drawShape(group, player, node.ghost ? "ghost" : `p${player}`);
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
      cut.textContent = cutReason(node.cutoff);
      node.elements.cut = cut;
    }
    if (node.children.length) {
      // a click folds the subtree away, or brings it back
      group.classList.add("foldable");
      group.addEventListener("click", () => toggleFold(node));
      if (lab.folded.has(node.key)) {
        group.classList.add("folded");
        const badge = svg("text", { x: RADIUS + 3, y: -RADIUS + 2, class: "fold-badge" }, group);
        badge.textContent = `▸${countBelow(node)}`;
        const title = svg("title", {}, group);
        title.textContent = `${countBelow(node)} nodes folded: click to unfold`;
      }
    }
  }
  $("unfold-all").hidden = lab.folded.size === 0;
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

function setStep(step, scroll = true) {
  const total = lab.data.events.length;
  lab.step = Math.max(0, Math.min(step, total));
  const view = stateAt(lab.step);
  // inside a folded subtree, the fold stands for the node the search is at
  let current = view.current && lab.nodes.get(view.current);
  while (current && !current.elements) current = parentOf(current);
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
    group.classList.toggle("current", current === node);
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
  if (current && scroll) current.elements.group.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function parentOf(node) {
  if (node.ghost) return lab.nodes.get(node.parentKey);
  return node.parent === null ? null : lab.nodes.get(String(node.parent));
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

// ------------------------------------------------------------------ lab: comparisons
// Minimax and alpha-beta on the same tree, drawn side by side in the minimax tree's
// shape, and alpha-beta's node counts with the children reordered: all computed by
// the server (zerosum.web.lab.compare_lab), drawn here.

async function loadCompare(body) {
  const ticket = lab.ticket;
  const card = $("lab-compare");
  card.hidden = false;
  $("compare-body").hidden = true;
  $("compare-message").hidden = false;
  $("compare-message").textContent = "Comparing minimax and alpha-beta…";
  // the experiments start from the problem itself: its own order, both algorithms
  const { order: _order, algorithm: _algorithm, ...problem } = body;
  try {
    const data = await api("POST", "/api/lab/compare", problem);
    if (lab.ticket !== ticket) return;
    showCompare(data);
  } catch (error) {
    if (lab.ticket !== ticket) return;
    $("compare-message").textContent = `No comparison for this search: ${error.message}`;
  }
}

function showCompare(data) {
  const plain = data.minimax;
  const pruning = data.alphabeta;
  const skipped = data.twins.filter((twin) => twin === null).length;
  $("compare-minimax-count").textContent = formatCount(plain.stats.nodes);
  $("compare-alphabeta-count").textContent = formatCount(pruning.stats.nodes);
  $("compare-summary").textContent =
    `Minimax visits ${formatCount(plain.stats.nodes)} nodes and alpha-beta ${formatCount(pruning.stats.nodes)}: ` +
    `the ${formatCount(skipped)} ${skipped === 1 ? "node" : "nodes"} marked ✂ on the minimax tree ` +
    `${skipped === 1 ? "is" : "are"} never visited by alpha-beta. Both find the value ${showScore(plain.root_value)}.`;
  // the minimax tree's shape, each node knowing its alpha-beta twin (or none: pruned)
  const nodes = plain.nodes.map((node) => ({ ...node, key: String(node.id), children: [], twin: data.twins[node.id] }));
  for (const node of nodes) if (node.parent !== null) nodes[node.parent].children.push(node);
  const placed = layoutTree(nodes[0], new Set());
  drawCompared($("compare-minimax"), placed, (node) => ({
    kind: node.twin === null ? "skipped" : "",
    value: showScore(node.value),
    mark: node.twin === null ? "✂" : "",
  }));
  drawCompared($("compare-alphabeta"), placed, (node) => {
    if (node.twin === null) return { kind: "ghost", value: "", mark: "" };
    const twin = pruning.nodes[node.twin];
    return { kind: "", value: valueText(twin), mark: twin.cutoff ? cutReason(twin.cutoff) : "" };
  });
  const rows = $("order-rows");
  rows.replaceChildren();
  const names = { original: "their own order", "best-first": "best first", "worst-first": "worst first" };
  for (const counts of data.orders) {
    const row = html("tr");
    row.dataset.order = counts.order;
    row.appendChild(html("td", names[counts.order]));
    row.appendChild(html("td", formatCount(counts.nodes), "nodes"));
    row.appendChild(html("td", formatCount(counts.leaves), "leaves"));
    row.appendChild(html("td", formatCount(counts.cutoffs)));
    const cell = html("td");
    const button = html("button", "step through", "small-button");
    button.type = "button";
    button.addEventListener("click", () => {
      $("lab-algorithm").value = "alphabeta";
      $("lab-order").value = counts.order;
      runLab(null);
    });
    cell.appendChild(button);
    row.appendChild(cell);
    rows.appendChild(row);
  }
  const row = html("tr");
  row.dataset.order = "minimax";
  for (const text of ["minimax, any order", formatCount(plain.stats.nodes), formatCount(plain.stats.leaves), "0", ""]) {
    row.appendChild(html("td", text));
  }
  rows.appendChild(row);
  let minimal = data.minimal === null ? data.note :
    `The minimal tree (Knuth and Moore, 1975), which alpha-beta visits exactly when every best move comes first: ` +
    `${formatCount(data.minimal.nodes)} nodes, ${formatCount(data.minimal.leaves)} leaves.`;
  if (data.uniform) {
    const { branching: b, depth: d, leaves } = data.uniform;
    minimal += ` This tree is uniform, b = ${b} children at every node and depth d = ${d}: ` +
      `b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = ${b}^${Math.ceil(d / 2)} + ${b}^${Math.floor(d / 2)} − 1 = ${formatCount(leaves)} leaves.`;
  }
  $("minimal-text").textContent = minimal;
  $("compare-message").hidden = true;
  $("compare-body").hidden = false;
}

// Draw a tree laid out by layoutTree; look(node) says how each node shows:
// { kind: "" | "skipped" | "ghost", value, mark }.
function drawCompared(picture, placed, look) {
  picture.replaceChildren();
  const { width, height } = treeSize(placed.columns, placed.depth);
  picture.setAttribute("viewBox", `0 0 ${width} ${height}`);
  picture.setAttribute("width", String(width));
  picture.setAttribute("height", String(height));
  // shrunk to its frame, but never below a third of its size: a big tree scrolls
  picture.style.minWidth = `${Math.round(width / 3)}px`;
  const edges = svg("g", { class: "edges" }, picture);
  const group = svg("g", { class: "nodes" }, picture);
  const byId = new Map(placed.order.map((node) => [node.id, node]));
  for (const node of placed.order) {
    const { x, y } = nodePosition(node);
    const shown = look(node);
    if (node.parent !== null) {
      const { edge } = drawEdge(edges, nodePosition(byId.get(node.parent)), { x, y }, node.move);
      if (shown.kind) edge.classList.add("pruned-edge");
    }
    const item = svg("g", { class: "node done", transform: `translate(${x} ${y})` }, group);
    item.dataset.key = node.key;
    drawShape(item, node.player, shown.kind === "ghost" ? "ghost" : `p${node.player}`);
    if (shown.kind) item.classList.add(shown.kind === "ghost" ? "pruned" : "skipped");
    const value = svg("text", { y: 4, class: "value" }, item);
    value.textContent = shown.value;
    value.classList.toggle("long", shown.value.length > 5);
    if (shown.mark) {
      const mark = svg("text", { y: RADIUS + 14, class: "cut-reason" }, item);
      mark.textContent = shown.mark;
    }
  }
}

// ------------------------------------------------------------------ lab: tree editor
// The JSON tree drawn as a tree to click: a leaf's value is changed in place, children
// are added and removed, and the JSON text follows (the server reads and checks it, as
// it does any pasted tree). A node of the editor is
// { label, value (a leaf's), children (an inner node's), estimate } plus, at the root,
// the title and description the text gave.

const editor = {
  model: null,
  selected: null, // the selected node's path: child positions from the root
  timer: null,
};

function readTree(raw, root) {
  if (typeof raw === "number") return { label: null, value: raw, children: null, estimate: null };
  if (Array.isArray(raw)) {
    return { label: null, value: null, children: raw.map((kid) => readTree(kid, false)), estimate: null };
  }
  if (raw === null || typeof raw !== "object") throw new Error(`a node is a number, a list or an object, not ${JSON.stringify(raw)}`);
  const node = {
    label: typeof raw.label === "string" ? raw.label : null,
    value: null,
    children: null,
    estimate: typeof raw.estimate === "number" ? raw.estimate : null,
  };
  if (Array.isArray(raw.children)) node.children = raw.children.map((kid) => readTree(kid, false));
  else if (typeof raw.value === "number") node.value = raw.value;
  else throw new Error(`a node object needs "children" or a number "value": ${JSON.stringify(raw).slice(0, 60)}`);
  if (root) {
    if ("title" in raw) node.title = raw.title;
    if ("description" in raw) node.description = raw.description;
  }
  return node;
}

// The shortest form of a node: a bare number or list when it has nothing else to say.
function writeTree(node, root) {
  if (node.children === null) return node.label === null ? node.value : { label: node.label, value: node.value };
  const children = node.children.map((kid) => writeTree(kid, false));
  const extra = root && ("title" in node || "description" in node);
  if (node.label === null && node.estimate === null && !extra) return children;
  const out = {};
  if (root && "title" in node) out.title = node.title;
  if (root && "description" in node) out.description = node.description;
  if (node.label !== null) out.label = node.label;
  out.children = children;
  if (node.estimate !== null) out.estimate = node.estimate;
  return out;
}

// Read the JSON box into the editor; text it cannot read leaves the editor empty with
// the reason (the search, if asked for, reports the server's error).
function refreshEditor() {
  const message = $("editor-message");
  try {
    editor.model = readTree(JSON.parse($("lab-json").value), true);
    message.hidden = true;
  } catch (error) {
    editor.model = null;
    message.textContent = `The editor shows a tree once the JSON reads: ${error.message}`;
    message.hidden = false;
  }
  if (editor.model && editor.selected && !nodeAt(editor.selected)) editor.selected = null;
  drawEditor();
}

function nodeAt(path) {
  let node = editor.model;
  for (const position of path) {
    if (!node || !node.children || position >= node.children.length) return null;
    node = node.children[position];
  }
  return node;
}

// A node's label as the tree game names it: its own, or made from its place.
function shownLabel(node, parentLabel, position, parentIsRoot) {
  if (node.label !== null) return node.label;
  return parentIsRoot ? String(position) : `${parentLabel}.${position}`;
}

function drawEditor() {
  const picture = $("editor-tree");
  picture.replaceChildren();
  picture.parentElement.hidden = editor.model === null;
  updateEditorTools();
  if (!editor.model) return;
  const wrap = (node, path, depth, label) => ({
    key: path.join("."),
    path,
    depth,
    label,
    model: node,
    children: (node.children || []).map((kid, i) =>
      wrap(kid, [...path, i], depth + 1, shownLabel(kid, label, i + 1, depth === 0))),
  });
  const root = wrap(editor.model, [], 0, editor.model.label || "root");
  const placed = layoutTree(root, new Set());
  const { width, height } = treeSize(placed.columns, placed.depth);
  picture.setAttribute("viewBox", `0 0 ${width} ${height - 30}`);
  picture.setAttribute("width", String(Math.round(width * 0.8)));
  picture.setAttribute("height", String(Math.round((height - 30) * 0.8)));
  const edges = svg("g", { class: "edges" }, picture);
  const group = svg("g", { class: "nodes" }, picture);
  const positions = new Map(placed.order.map((n) => [n.key, nodePosition(n)]));
  const selected = editor.selected ? editor.selected.join(".") : null;
  for (const node of placed.order) {
    const at = positions.get(node.key);
    if (node.path.length) drawEdge(edges, positions.get(node.path.slice(0, -1).join(".")), at, node.label);
    const item = svg("g", { class: "node edit-node", transform: `translate(${at.x} ${at.y})` }, group);
    item.dataset.path = node.key;
    const leaf = node.model.children === null;
    item.classList.toggle("leaf", leaf);
    item.classList.toggle("selected", node.key === selected);
    drawShape(item, node.depth % 2, `p${node.depth % 2}`);
    const value = svg("text", { y: 4, class: "value" }, item);
    value.textContent = leaf ? String(node.model.value) : node.model.estimate !== null ? `~${node.model.estimate}` : "";
    value.classList.toggle("long", value.textContent.length > 5);
    const title = svg("title", {}, item);
    title.textContent = leaf ? `leaf ${node.label} = ${node.model.value}: click to change its value` : `${node.label}: click to select`;
    item.addEventListener("click", () => selectInEditor(node.path));
  }
}

function selectInEditor(path) {
  editor.selected = path;
  drawEditor();
  const node = nodeAt(path);
  if (node && node.children === null) {
    $("editor-value").value = String(node.value);
    $("editor-value").focus();
    $("editor-value").select();
  }
}

function updateEditorTools() {
  const node = editor.model && editor.selected ? nodeAt(editor.selected) : null;
  const leaf = Boolean(node) && node.children === null;
  const input = $("editor-value");
  input.disabled = !leaf;
  // a value being typed is left alone when the editor is drawn again meanwhile
  if (document.activeElement !== input || !leaf) input.value = leaf ? String(node.value) : "";
  $("editor-add").disabled = !node;
  $("editor-remove").disabled = !node || editor.selected.length === 0;
  if (!node) $("editor-selected").textContent = "nothing selected";
  else {
    const where = editor.selected.length ? `node ${editor.selected.map((i) => i + 1).join(".")}` : "the root";
    const role = editor.selected.length % 2 ? "MIN" : "MAX";
    $("editor-selected").textContent = leaf ? `${where}: a leaf` : `${where}: ${role}, ${node.children.length} children`;
  }
}

// Write the edited tree into the JSON box and search it again, staying at the step
// shown (or at the end, if it was shown).
function commitEdit() {
  $("lab-json").value = JSON.stringify(writeTree(editor.model, true));
  drawEditor();
  if (labSource() === "tree") {
    runLab(null, (before, total) => (before.step >= before.total ? total : Math.min(before.step, total)));
  }
}

function setLeafValue() {
  const node = editor.selected ? nodeAt(editor.selected) : null;
  const text = $("editor-value").value.trim();
  if (!node || node.children !== null || text === "") return;
  const value = Number(text);
  if (!Number.isInteger(value)) {
    showError(`a leaf's value is an integer, not ${text}`);
    return;
  }
  if (value === node.value) return;
  // a leaf named after its value (as in the example trees) keeps being so, if its
  // siblings leave the name free
  if (node.label === String(node.value)) {
    const parent = nodeAt(editor.selected.slice(0, -1));
    const taken = parent.children.some((kid) => kid !== node && kid.label === String(value));
    node.label = taken ? null : String(value);
  }
  node.value = value;
  commitEdit();
}

function addChild() {
  const node = editor.selected ? nodeAt(editor.selected) : null;
  if (!node) return;
  if (node.children === null) {
    // a leaf becomes an inner node; its value moves down to its first child
    node.children = [{ label: null, value: node.value, children: null, estimate: null }];
    node.value = null;
  }
  node.children.push({ label: null, value: 0, children: null, estimate: null });
  editor.selected = [...editor.selected, node.children.length - 1];
  commitEdit();
}

function removeNode() {
  if (!editor.selected || editor.selected.length === 0) return;
  const parent = nodeAt(editor.selected.slice(0, -1));
  parent.children.splice(editor.selected[editor.selected.length - 1], 1);
  if (parent.children.length === 0) {
    // a node left without children is a leaf, worth 0 until given a value
    parent.children = null;
    parent.value = 0;
    parent.estimate = null;
  }
  editor.selected = editor.selected.slice(0, -1);
  commitEdit();
}

// Open the tree of the search shown in the editor (an example's file, or the tree in
// the order searched).
function editShownTree() {
  if (!lab.data || !lab.data.tree) return;
  document.querySelector("input[name=source][value=tree]").checked = true;
  $("lab-json").value = lab.data.tree;
  $("lab-order").value = "original";
  editor.selected = null;
  showSource();
  $("editor").scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ lab: export
// The tree at the step shown, as a standalone SVG (every style written on its element as
// presentation attributes, which the page's rules allow where a style attribute is
// not; hidden parts left out; the narration on top) and as a PNG drawn from it.

const EXPORTED_STYLES = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-linejoin",
  "stroke-linecap", "paint-order", "opacity", "font-family", "font-size", "font-weight",
  "text-anchor", "dominant-baseline",
];

function wrapText(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && (line.length + word.length + 1) > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function exportedSvg() {
  const source = $("lab-tree");
  const copy = source.cloneNode(true);
  const originals = [...source.querySelectorAll("*")];
  const copies = [...copy.querySelectorAll("*")];
  const dropped = [];
  originals.forEach((element, i) => {
    const style = getComputedStyle(element);
    const target = copies[i];
    if (style.display === "none" || element.tagName === "title") {
      dropped.push(target);
      return;
    }
    for (const name of EXPORTED_STYLES) target.setAttribute(name, style.getPropertyValue(name));
    target.removeAttribute("class");
    target.removeAttribute("data-key");
  });
  for (const element of dropped) element.remove();
  const { width: treeWidth, height: treeHeight } = lab.size;
  const width = Math.max(treeWidth, 560);
  const font = getComputedStyle(document.body).fontFamily;
  const caption = [
    { text: $("lab-title").textContent, size: 17, weight: 700 },
    {
      text: `Step ${lab.step} of ${lab.data.events.length} · root value ${$("lab-value").textContent} · ` +
        `nodes visited ${$("lab-count").textContent} · pruned ${$("lab-pruned").textContent}`,
      size: 13,
      weight: 400,
    },
    ...wrapText($("step-text").textContent, Math.floor(width / 7.6)).map((text) => ({ text, size: 14, weight: 500 })),
  ];
  const top = 16 + caption.length * 21;
  const height = top + treeHeight;
  const root = document.createElementNS(SVG_NS, "svg");
  root.setAttribute("xmlns", SVG_NS);
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  root.setAttribute("width", String(width));
  root.setAttribute("height", String(height));
  svg("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }, root);
  caption.forEach((line, i) => {
    const text = svg("text", {
      x: 16, y: 30 + i * 21, "font-family": font, "font-size": `${line.size}px`, "font-weight": line.weight, fill: "#1d2330",
    }, root);
    text.textContent = line.text;
  });
  const tree = svg("g", { transform: `translate(${(width - treeWidth) / 2} ${top})` }, root);
  for (const child of [...copy.childNodes]) tree.appendChild(child);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`;
  return { text, width, height };
}

function exportName(extension) {
  const title = (lab.data.title || "tree").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${title || "tree"}-step-${lab.step}.${extension}`;
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportSvg() {
  if (!lab.data) return;
  download(new Blob([exportedSvg().text], { type: "image/svg+xml" }), exportName("svg"));
}

// The PNG is the SVG drawn at twice its size; the page's rules allow images from data:
// addresses, so the SVG goes in as one.
async function exportPng() {
  if (!lab.data) return;
  const { text, width, height } = exportedSvg();
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const image = new Image();
  image.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  try {
    await image.decode();
    const scale = 2;
    const canvas = document.createElement("canvas");
    canvas.width = width * scale;
    canvas.height = height * scale;
    const context = canvas.getContext("2d");
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("the browser made no image");
    download(blob, exportName("png"));
  } catch (error) {
    showError(`The PNG could not be made: ${error.message}`);
  }
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
  const boardBox = $("board");
  boardBox.addEventListener("keydown", boardKey);
  boardBox.addEventListener("pointerdown", () => {
    boardState.pointerAt = performance.now();
    boardState.keyboard = false;
    drawCursor();
  }, true);
  boardBox.addEventListener("focus", () => {
    // focus that follows a press of the pointer is the pointer's; any other (Tab) is
    // the keyboard's
    if (performance.now() - boardState.pointerAt > 500) {
      boardState.keyboard = true;
      if (boardState.cursor === null && boardState.shown && boardState.shown.board) {
        boardState.cursor = startCursor(boardState.shown.board);
      }
    }
    drawCursor();
  });
  boardBox.addEventListener("blur", drawCursor);
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
  $("lab-form").addEventListener("submit", (event) => runLab(event));
  $("lab-edit").addEventListener("click", editShownTree);
  $("lab-json").addEventListener("input", () => {
    clearTimeout(editor.timer);
    editor.timer = setTimeout(refreshEditor, 250);
  });
  $("editor-value").addEventListener("change", setLeafValue);
  $("editor-value").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      setLeafValue();
    }
  });
  $("editor-add").addEventListener("click", addChild);
  $("editor-remove").addEventListener("click", removeNode);
  $("export-svg").addEventListener("click", exportSvg);
  $("export-png").addEventListener("click", exportPng);
  $("zoom-in").addEventListener("click", () => setZoom(lab.zoom * 1.25));
  $("zoom-out").addEventListener("click", () => setZoom(lab.zoom / 1.25));
  $("zoom-fit").addEventListener("click", () => setZoom(fittingZoom()));
  $("unfold-all").addEventListener("click", unfoldAll);
  $("tree-scroll").addEventListener("wheel", (event) => {
    if (!event.ctrlKey || !lab.data) return;
    event.preventDefault();
    setZoom(lab.zoom * Math.exp(-event.deltaY * 0.002));
  }, { passive: false });
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
  $("lab-order").value = body.order || "original";
  if (source === "tree") refreshEditor();
  const ticket = Symbol("lab");
  lab.ticket = ticket;
  try {
    const data = await api("POST", "/api/lab", body);
    lab.request = body;
    loadTrace(data);
    setStep(Number(step) || 0);
    loadCompare(body);
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
