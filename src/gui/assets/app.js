// Slimetrail in the browser: draws the state the server streams (Server-Sent Events, read
// with fetch so that a gone session (404) can be told from a busy server) and sends the
// player's commands as protocol lines. Plain JavaScript, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
const KEPT = 'slimetrail-session'; // sessionStorage: this tab's session, kept over reloads
let session = null;
let stream = null; // the AbortController of the event stream
let retries = 0;
let fallbacks = 0;
let state = null;
let focused = null; // the square name keeping the keyboard focus
let drawnSize = '';
let viewPly = null; // the ply shown while stepping back through the moves; null: the game
let recordShows = null; // what the record box follows: 'pgn', 'position', or null (your text)
let armed = null; // a square that loses at once, clicked once: a second click plays it
let wantHint = ''; // the game (start and moves) in which a hint was asked with analysis on
let localNotice = { text: '', replaces: null }; // the page's words for a notice of the server's

// Strength in words; each Level below 10 looks that many plies ahead (protocol.md).
const LEVELS = ['', 'beginner', 'novice', 'casual', 'improver', 'club player',
  'strong club player', 'expert', 'master', 'strong master', 'full strength'];
const levelName = (n) => `Level ${n}: ${LEVELS[n] || ''}`;

const files = 'abcdefghijk';
const squareName = (file, rank) => files[file] + (rank + 1);
const fileOf = (name) => files.indexOf(name[0]);
const rankOf = (name) => parseInt(name.slice(1), 10) - 1;
const near = (a, b) => a !== b && Math.abs(fileOf(a) - fileOf(b)) <= 1 && Math.abs(rankOf(a) - rankOf(b)) <= 1;
const goalOf = (side) => (side === 1 ? 'a1' : squareName(state.width - 1, state.height - 1));
const gameKey = () => `${state.width}x${state.height} ${state.start} ${state.moves.join(' ')}`;

function showError(text) {
  $('error').textContent = text || '';
}

async function post(path, body) {
  localNotice = { text: '', replaces: null }; // a new request: the page's last words are old
  if (!session) { showError('No game: press New game.'); return false; }
  let response;
  try {
    response = await fetch(`/api/sessions/${session}/${path}`, {
      method: 'POST', headers: { 'Content-Type': 'text/plain' }, body,
    });
  } catch (e) { showError('The server cannot be reached.'); return false; }
  let reply = {};
  try { reply = await response.json(); } catch (e) { reply = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    showError(reply.error || `HTTP ${response.status}`);
    return false;
  }
  showError('');
  return true;
}

const send = (...lines) => post('commands', lines.join('\n'));

async function openSession() {
  showError('');
  $('turn').textContent = 'Starting a game…';
  let response;
  try {
    response = await fetch('/api/sessions', { method: 'POST' });
  } catch (e) {
    $('turn').textContent = 'The server cannot be reached.';
    return false;
  }
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) {
    $('turn').textContent = 'No game could be started.';
    showError(reply.error || `HTTP ${response.status}`);
    return false;
  }
  session = reply.id;
  sessionStorage.setItem(KEPT, session);
  connect();
  return true;
}

// The event stream: the state now and after every change. A 404 means the session is
// gone (it was idle, or the server restarted): a new game starts. Anything else is retried.
async function connect() {
  if (stream) stream.abort();
  const mine = new AbortController();
  stream = mine;
  const again = () => {
    if (mine !== stream || mine.signal.aborted) return;
    retries += 1;
    if (retries > 20) { $('turn').textContent = 'The server cannot be reached: reload the page to try again.'; return; }
    setTimeout(() => { if (mine === stream && session) connect(); }, Math.min(4000, 250 * retries));
  };
  let response;
  try {
    response = await fetch(`/api/sessions/${session}/events`, { signal: mine.signal, cache: 'no-store' });
  } catch (e) { again(); return; }
  if (response.status === 404) {
    sessionStorage.removeItem(KEPT);
    session = null;
    fallbacks += 1;
    localNotice = { text: 'The earlier game had ended on the server: this is a new game.', replaces: null };
    if (fallbacks > 3 || !await openSession()) {
      localNotice = { text: '', replaces: null };
      $('turn').textContent = 'The game ended on the server. Press New game to start again.';
    }
    return;
  }
  if (!response.ok) { again(); return; }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      retries = 0;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, cut).split('\n').filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart()).join('\n');
        buffer = buffer.slice(cut + 2);
        if (data) received(JSON.parse(data));
      }
    }
  } catch (e) { /* the stream broke: try again below */ }
  again();
}

function received(next) {
  if (next.kind !== 'state') return;
  const before = state ? gameKey() : null;
  state = next;
  if (gameKey() !== before) {
    armed = null;
    if (viewPly !== null && viewPly >= state.moves.length) viewPly = null;
  }
  render();
}

// A reload keeps the session: no close beacon, which could not tell a reload from a closed
// tab. A closed tab's game ends by the server's grace period once its stream is gone.
window.addEventListener('pageshow', (e) => { if (e.persisted && session) connect(); });

const mover = () => state.players[state.to_move - 1];
const humanToMove = () => !state.over && mover() === 'human';
const viewing = () => viewPly !== null;

function buildBoard() {
  const board = $('board');
  board.textContent = '';
  board.style.gridTemplateColumns = `repeat(${state.width}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${state.height}, 1fr)`;
  board.style.setProperty('--aspect', `${state.width} / ${state.height}`);
  board.setAttribute('aria-label', `Board, ${state.width} by ${state.height}`);
  for (let rank = state.height - 1; rank >= 0; rank--) {
    for (let file = 0; file < state.width; file++) {
      const name = squareName(file, rank);
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.sq = name;
      button.tabIndex = -1;
      button.addEventListener('click', () => clickSquare(name));
      button.addEventListener('focus', () => { focused = name; });
      board.appendChild(button);
    }
  }
  drawnSize = `${state.width}x${state.height}`;
  focused = null;
}

// What a legal square does at once: 'wins' (the mover's goal), 'loses' (the opponent's
// goal), 'risky' (next to the opponent's goal, which the opponent then enters), or ''.
function danger(sq) {
  const own = goalOf(state.to_move);
  const theirs = goalOf(3 - state.to_move);
  if (sq === own) return 'wins';
  if (sq === theirs) return 'loses';
  return near(sq, theirs) ? 'risky' : '';
}

function clickSquare(name) {
  if (!state || !session) return;
  focused = name;
  if (viewing()) {
    showError('You are looking at an earlier position: press "Back to the game", or "Play on from here" to take back.');
    return;
  }
  const safe = state.legal.some((sq) => danger(sq) !== 'loses');
  if (humanToMove() && state.legal.includes(name) && danger(name) === 'loses' && safe && armed !== name) {
    armed = name;
    showError(`${name} is the goal of player ${3 - state.to_move}: stepping there loses at once. Click ${name} again to play it anyway.`);
    render();
    return;
  }
  armed = null;
  send(`move ${name}`);
}

// The position shown: the game's, or an earlier one while stepping back.
function shown() {
  const n = state.moves.length;
  const ply = viewing() ? viewPly : n;
  // The start's own slime: what is slimed now but was not left by the snail in this game.
  const left = new Set([state.start, ...state.moves.slice(0, -1)]);
  const startSlime = n ? state.slimed.filter((sq) => !left.has(sq)) : state.slimed;
  const trail = [state.start, ...state.moves.slice(0, ply)];
  return {
    ply, trail, snail: trail[trail.length - 1],
    slimed: new Set([...startSlime, ...trail.slice(0, -1)]),
    legal: new Set(!viewing() && humanToMove() ? state.legal : []),
  };
}

// One answer to "what should I play": with analysis on, its line (and the hint box on its
// first move); with it off, the hint. Returns the square to box and the words to say.
function advice() {
  const t = state.thinking;
  const pv = (state.analysis && t && t.pv) || [];
  if (!state.analysis) {
    return state.hint ? [state.hint, `Hint: ${state.hint}, the engine's choice after a short search at full strength.`] : [null, ''];
  }
  const asked = state.hint || wantHint === gameKey();
  if (!asked || viewing()) return [null, ''];
  if (!pv.length) return [state.hint, state.hint ? `Hint: ${state.hint}. The analysis is starting…` : 'Hint: waiting for the analysis…'];
  let words = `Hint: ${pv[0]}, the first move of the analysis (depth ${t.depth ?? '–'}).`;
  if (state.hint && state.hint !== pv[0]) {
    words = `The hint ${state.hint} came from a short search; the analysis has searched longer (depth ${t.depth ?? '–'}) and now prefers ${pv[0]}, so the board shows ${pv[0]}.`;
    if (t.score && t.score.startsWith(`player ${3 - state.to_move} wins`)) {
      words += ' Against best play every move loses here, so two searches may well pick different ones.';
    }
  }
  return [pv[0], words];
}

function render() {
  if (`${state.width}x${state.height}` !== drawnSize) buildBoard();
  const goal1 = goalOf(1);
  const goal2 = goalOf(2);
  const view = shown();
  const step = new Map();
  view.trail.forEach((sq, i) => { if (sq !== view.snail) step.set(sq, i + 1); });
  const last = view.ply > 0 ? [view.trail[view.ply - 1], view.trail[view.ply]] : [];
  const [hint, hintWords] = advice();
  // The first moves of the engine's line, drawn on the board.
  const pv = (!viewing() && state.analysis && state.thinking && state.thinking.pv || []).slice(0, 8);
  for (const button of $('board').children) {
    const sq = button.dataset.sq;
    const words = [];
    const classes = ['sq'];
    if ((fileOf(sq) + rankOf(sq)) % 2) classes.push('dark');
    let text = '';
    if (sq === view.snail) { classes.push('snail'); words.push('snail'); }
    if (view.slimed.has(sq)) {
      classes.push('slimed');
      words.push(`slimed, trail step ${step.get(sq) || ''}`.trim());
      text = `<span class="step">${step.get(sq) || ''}</span>`;
    }
    if (sq === goal1) { classes.push('goal1'); words.push('goal of player 1'); text = '<span class="goal">1</span>'; }
    if (sq === goal2) { classes.push('goal2'); words.push('goal of player 2'); text = '<span class="goal">2</span>'; }
    if (last.includes(sq)) { classes.push('last'); words.push(sq === last[1] ? 'last move to here' : 'last move from here'); }
    if (view.legal.has(sq)) {
      const d = danger(sq);
      classes.push('legal');
      if (d) classes.push(d);
      words.push({ wins: 'legal move, wins at once', loses: `legal move, loses at once: player ${3 - state.to_move} wins`,
        risky: `legal move, loses: player ${3 - state.to_move} then steps into its goal`, '': 'legal move' }[d]);
      if (armed === sq) classes.push('armed');
    }
    if (hint === sq) { classes.push('hint'); words.push('hint'); }
    const inPv = pv.indexOf(sq);
    if (inPv >= 0) words.push(`engine line move ${inPv + 1}`);
    if (words.length === 0) words.push('empty');
    button.className = classes.join(' ');
    button.setAttribute('aria-label', `${sq}, ${words.join(', ')}`);
    button.innerHTML = `<span class="name" aria-hidden="true">${sq}</span>${text}`;
  }
  // One square takes the keyboard focus in the board: the focused one, else the snail.
  const keep = focused && $('board').querySelector(`[data-sq="${focused}"]`);
  for (const button of $('board').children) button.tabIndex = -1;
  (keep || $('board').querySelector(`[data-sq="${view.snail}"]`)).tabIndex = 0;
  drawLines(view.trail, pv);
  renderStatus(hintWords);
  renderMoves();
  renderThinking();
  renderRecord();
}

function centre(sq) {
  return [fileOf(sq) + 0.5, state.height - rankOf(sq) - 0.5];
}

function drawLines(trail, pv) {
  const svg = $('lines');
  svg.setAttribute('viewBox', `0 0 ${state.width} ${state.height}`);
  const points = (squares) => squares.map((sq) => centre(sq).join(',')).join(' ');
  let html = `<polyline class="trail" points="${points(trail)}"/>`;
  if (pv.length) {
    html += `<polyline class="pv" points="${points([state.snail, ...pv])}"/>`;
    pv.forEach((sq, i) => {
      const [x, y] = centre(sq);
      html += `<circle cx="${x + 0.28}" cy="${y - 0.28}" r="0.16"/>
        <text x="${x + 0.28}" y="${y - 0.22}" font-size="0.2" text-anchor="middle">${i + 1}</text>`;
    });
  }
  svg.innerHTML = html;
}

function renderStatus(hintWords) {
  const who = (side) => (state.players[side - 1] === 'human'
    ? (state.players.every((p) => p === 'human') ? 'human' : 'you') : 'engine');
  let turn;
  if (state.over) {
    turn = `Game over: player ${state.over.winner} (${who(state.over.winner)}) won, ${state.over.reason}.`;
  } else if (mover() === 'engine' && state.engine.status === 'down') {
    turn = `Player ${state.to_move} (engine) to move, but the engine is down.`;
  } else if (mover() === 'engine') {
    turn = `Player ${state.to_move} (engine) to move: thinking…`;
  } else {
    turn = `Player ${state.to_move} (${who(state.to_move)}) to move; goal ${goalOf(state.to_move)}.`;
  }
  $('turn').textContent = turn;
  const announce = $('announce');
  // The server's "Hint: X." gives way to the page's one answer.
  const serverHint = state.hint && state.notice === `Hint: ${state.hint}.`;
  const notice = localNotice.text && state.notice === localNotice.replaces ? localNotice.text : state.notice;
  const text = state.over ? state.over.text : (hintWords || (serverHint ? '' : notice || ''));
  if (announce.textContent !== text) announce.textContent = text;
  announce.classList.toggle('over', !!state.over);
  $('engine-name').textContent = state.engine.name;
  $('engine-status').textContent = `(${state.engine.status})`;
  const levels = state.engine.levels;
  $('engine-level').textContent = state.players.includes('engine') ? `, ${levelName(state.level)}` : '';
  $('no-level').hidden = levels !== null;
  $('level-range').textContent = Array.isArray(levels) && (levels[0] !== 1 || levels[1] !== 10)
    ? `This engine's Level runs from ${levels[0]} to ${levels[1]}: the page's 1–10 is clamped to it.` : '';
  const down = state.engine.status === 'down';
  $('engine-down').hidden = !down;
  $('engine-message').textContent = down ? `The engine is down: ${state.engine.message}` : '';
  $('undo').disabled = state.moves.length === 0;
  $('redo').disabled = state.redo.length === 0;
  $('hint').disabled = !humanToMove() || down || viewing();
  $('stop').disabled = state.engine.status !== 'thinking';
  $('analysis').checked = state.analysis;
}

function startSide() {
  // The side to move at the start follows from the side to move now and the moves played.
  return ((state.to_move - 1 + state.moves.length) % 2) + 1;
}

function renderMoves() {
  // Numbered moves, a pair per line, each a button that shows the position after it;
  // moves that redo would replay are greyed.
  const list = $('moves');
  list.textContent = '';
  const offset = startSide() - 1;
  const current = viewing() ? viewPly : state.moves.length;
  const item = (label, ply, extra) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = extra;
    b.textContent = label;
    b.addEventListener('click', () => showPly(ply));
    if (ply === current) b.setAttribute('aria-current', 'step');
    return b;
  };
  const start = document.createElement('li');
  start.className = 'start';
  start.appendChild(item('Start', 0, 'ply'));
  list.appendChild(start);
  let li = null;
  const all = [...state.moves.map((m) => [m, false]), ...state.redo.map((m) => [m, true])];
  all.forEach(([move, redo], i) => {
    const ply = i + offset;
    if (ply % 2 === 0 || li === null) {
      li = document.createElement('li');
      li.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) li.appendChild(document.createTextNode('… '));
      list.appendChild(li);
    }
    let node;
    if (redo) {
      node = document.createElement('span');
      node.className = 'mv redo';
      node.textContent = move;
    } else {
      node = item(move, i + 1, 'mv');
    }
    node.setAttribute('aria-label', `player ${(ply % 2) + 1}: ${move}${redo ? ' (undone)' : ''}`);
    li.appendChild(node);
    li.appendChild(document.createTextNode(' '));
  });
  const here = list.querySelector('[aria-current]');
  list.scrollTop = viewing() && here ? here.offsetTop - list.clientHeight / 2 : list.scrollHeight;
  $('browse').hidden = !viewing();
  if (viewing()) {
    $('browse-text').textContent = `Looking at the position after ${viewPly} of ${state.moves.length} moves (view only).`;
  }
  $('back').disabled = current === 0;
  $('forward').disabled = current === state.moves.length;
}

function showPly(ply) {
  viewPly = ply >= state.moves.length ? null : Math.max(0, ply);
  armed = null;
  showError('');
  render();
}

function playFromHere() {
  if (!viewing()) return;
  const moves = state.moves.slice(0, viewPly);
  viewPly = null;
  send(`position startpos${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
  localNotice = { text: `Taken back to the position after ${moves.length} moves.`, replaces: 'Position imported.' };
}

function renderThinking() {
  const t = state.thinking;
  let line = '';
  if (state.analysis && t) {
    line = `${t.purpose}: depth ${t.depth ?? '–'}, ${t.score ?? 'no score yet'}`;
    if (t.pv.length) line += `; line ${t.pv.join(' ')}`;
    if (t.nodes != null) line += ` (${t.nodes} nodes)`;
  } else if (state.analysis) {
    line = state.over ? 'The game is over.' : 'Analysis on: waiting for the engine…';
  }
  $('think-line').textContent = line;
  $('verdict').textContent = state.analysis && state.verdict ? `Verdict: ${state.verdict}` : '';
}

// The record box follows the game while it shows the PGN or the position string; once you
// type in it, it is yours until you press PGN or Position string again.
function renderRecord() {
  if (recordShows && $('record').value !== state[recordShows]) $('record').value = state[recordShows];
  $('record-shows').textContent = recordShows === 'pgn' ? 'the PGN of the game, kept current'
    : recordShows === 'position' ? 'the position string, kept current' : 'your text';
}

function showRecord(what) {
  recordShows = what;
  if (state) renderRecord();
}

// The new game dialog.
function fillSelect(select, values, chosen) {
  select.textContent = '';
  for (const [value, label] of values) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    if (value === chosen) option.selected = true;
    select.appendChild(option);
  }
}

function fillStarts() {
  const w = parseInt($('width').value, 10);
  const h = parseInt($('height').value, 10);
  const def = squareName(Math.floor(w / 2), Math.floor(h / 2));
  const values = [[def, `${def} (default)`]];
  if (w === 7 && h === 7) values.push(['e5', 'e5']);
  for (let rank = 0; rank < h; rank++) {
    for (let file = 0; file < w; file++) {
      const sq = squareName(file, rank);
      const goal = (file === 0 && rank === 0) || (file === w - 1 && rank === h - 1);
      if (!goal && !values.some(([v]) => v === sq)) values.push([sq, sq]);
    }
  }
  fillSelect($('start'), values, def);
}

function openNewGame() {
  const sizes = [];
  for (let n = 3; n <= 11; n++) sizes.push([String(n), String(n)]);
  fillSelect($('width'), sizes, String(state ? state.width : 7));
  fillSelect($('height'), sizes, String(state ? state.height : 7));
  fillStarts();
  const levels = [];
  for (let n = 1; n <= 10; n++) levels.push([String(n), levelName(n)]);
  fillSelect($('level'), levels, String(state ? state.level : 1));
  $('level').disabled = !!state && state.engine.levels === null;
  if (state) {
    $('mode').value = state.players.join(' ');
    $('movetime').value = String(state.movetime);
  }
  $('newgame-dialog').showModal();
}

async function startNewGame() {
  if (!session && !await openSession()) return;
  const [p1, p2] = $('mode').value.split(' ');
  viewPly = null;
  await send(
    `setoption name Player1 value ${p1}`,
    `setoption name Player2 value ${p2}`,
    `setoption name Level value ${$('level').value}`,
    `setoption name MoveTime value ${$('movetime').value}`,
    `newgame size ${$('width').value}x${$('height').value} start ${$('start').value}`,
  );
}

async function importRecord() {
  const text = $('record').value.trim();
  if (!text) { showError('import: the record is empty: expected a PGN, a position string or moves'); return; }
  viewPly = null;
  if (text.startsWith('[') || /\d\./.test(text)) {
    await post('pgn', text);
  } else if (text.includes('/')) {
    await send(`position fen ${text}`);
  } else {
    await send(`position startpos moves ${text}`);
  }
}

function moveFocus(dx, dy) {
  const from = focused || state.snail;
  const file = Math.min(state.width - 1, Math.max(0, fileOf(from) + dx));
  const rank = Math.min(state.height - 1, Math.max(0, rankOf(from) + dy));
  const button = $('board').querySelector(`[data-sq="${squareName(file, rank)}"]`);
  for (const b of $('board').children) b.tabIndex = -1;
  button.tabIndex = 0;
  button.focus();
}

const stepBy = (d) => showPly((viewing() ? viewPly : state.moves.length) + d);

document.addEventListener('keydown', (e) => {
  if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || '').toLowerCase();
  if (tag === 'textarea' || tag === 'select' || tag === 'input' || $('newgame-dialog').open) return;
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (arrows[e.key] && e.target.classList && e.target.classList.contains('sq')) {
    e.preventDefault();
    moveFocus(...arrows[e.key]);
    return;
  }
  const keys = { n: openNewGame, u: () => send('undo'), r: () => send('redo'), h: askHint,
    a: () => toggleAnalysis(!state.analysis), s: () => send('stop'),
    ArrowLeft: () => stepBy(-1), ArrowRight: () => stepBy(1), Escape: () => showPly(Infinity) };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

// With analysis on, the hint is the analysis's first move: one answer, no second search.
function askHint() {
  if (state && state.analysis) {
    wantHint = gameKey();
    render();
  } else {
    send('go movetime 1000');
  }
}

const toggleAnalysis = (on) => send(`setoption name Analysis value ${on}`);

$('new').addEventListener('click', openNewGame);
$('undo').addEventListener('click', () => send('undo'));
$('redo').addEventListener('click', () => send('redo'));
$('hint').addEventListener('click', askHint);
$('stop').addEventListener('click', () => send('stop'));
$('restart').addEventListener('click', () => send('restart'));
$('analysis').addEventListener('change', (e) => toggleAnalysis(e.target.checked));
$('back').addEventListener('click', () => stepBy(-1));
$('forward').addEventListener('click', () => stepBy(1));
$('to-game').addEventListener('click', () => showPly(Infinity));
$('play-here').addEventListener('click', playFromHere);
$('show-pgn').addEventListener('click', () => showRecord('pgn'));
$('show-position').addEventListener('click', () => showRecord('position'));
$('record').addEventListener('input', () => showRecord(null));
$('import').addEventListener('click', importRecord);
let downloadUrl = null;
$('download').addEventListener('click', () => {
  // A fresh file of the record at each click; the previous one is freed.
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([state ? state.pgn : ''], { type: 'text/plain' }));
  $('download').href = downloadUrl;
});
$('width').addEventListener('change', fillStarts);
$('height').addEventListener('change', fillStarts);
$('newgame-dialog').addEventListener('close', () => {
  if ($('newgame-dialog').returnValue === 'ok') startNewGame();
});

session = sessionStorage.getItem(KEPT);
if (session) connect(); else openSession();
