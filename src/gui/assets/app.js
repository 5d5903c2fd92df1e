// Slimetrail in the browser: draws the state the server streams (Server-Sent Events)
// and sends the player's commands as protocol lines. Plain JavaScript, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
let session = null;
let events = null;
let state = null;
let focused = null; // the square name keeping the keyboard focus
let drawnSize = '';

const files = 'abcdefghijk';
const squareName = (file, rank) => files[file] + (rank + 1);
const fileOf = (name) => files.indexOf(name[0]);
const rankOf = (name) => parseInt(name.slice(1), 10) - 1;

function showError(text) {
  $('error').textContent = text || '';
}

async function post(path, body) {
  const response = await fetch(`/api/sessions/${session}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body,
  });
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
    return;
  }
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) {
    $('turn').textContent = 'No game could be started.';
    showError(reply.error || `HTTP ${response.status}`);
    return;
  }
  session = reply.id;
  listen();
}

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/sessions/${session}/events`);
  events.onmessage = (e) => {
    state = JSON.parse(e.data);
    render();
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) {
      $('turn').textContent = 'The game ended on the server (idle or closed). Press New game to start again.';
      session = null;
    }
  };
}

window.addEventListener('pagehide', () => {
  if (session) navigator.sendBeacon(`/api/sessions/${session}/close`);
});

function mover() {
  return state.players[state.to_move - 1];
}

function humanToMove() {
  return !state.over && mover() === 'human';
}

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
      button.className = 'sq' + ((file + rank) % 2 ? ' dark' : '');
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

function clickSquare(name) {
  if (!state || !session) return;
  focused = name;
  send(`move ${name}`);
}

function render() {
  if (`${state.width}x${state.height}` !== drawnSize) buildBoard();
  const goal1 = 'a1';
  const goal2 = squareName(state.width - 1, state.height - 1);
  const slimed = new Set(state.slimed);
  const legal = new Set(humanToMove() ? state.legal : []);
  const trail = [state.start, ...state.moves];
  const step = new Map();
  trail.forEach((sq, i) => { if (sq !== state.snail) step.set(sq, i + 1); });
  // The first moves of the engine's line, drawn on the board.
  const pv = ((state.analysis && state.thinking && state.thinking.pv) || []).slice(0, 8);
  for (const button of $('board').children) {
    const sq = button.dataset.sq;
    const words = [];
    const classes = ['sq'];
    if ((fileOf(sq) + rankOf(sq)) % 2) classes.push('dark');
    let text = '';
    if (sq === state.snail) { classes.push('snail'); words.push('snail'); }
    if (slimed.has(sq)) {
      classes.push('slimed');
      words.push(`slimed, trail step ${step.get(sq) || ''}`.trim());
      text = `<span class="step">${step.get(sq) || ''}</span>`;
    }
    if (sq === goal1) { classes.push('goal1'); words.push('goal of player 1'); text = '<span class="goal">1</span>'; }
    if (sq === goal2) { classes.push('goal2'); words.push('goal of player 2'); text = '<span class="goal">2</span>'; }
    if (legal.has(sq)) { classes.push('legal'); words.push('legal move'); }
    if (state.hint === sq) { classes.push('hint'); words.push('hint'); }
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
  (keep || $('board').querySelector(`[data-sq="${state.snail}"]`)).tabIndex = 0;
  drawLines(trail, pv);
  renderStatus();
  renderMoves();
  renderThinking();
}

function centre(sq) {
  return [fileOf(sq) + 0.5, state.height - rankOf(sq) - 0.5];
}

function drawLines(trail, pv) {
  const svg = $('lines');
  svg.setAttribute('viewBox', `0 0 ${state.width} ${state.height}`);
  const points = (squares) => squares.map((sq) => centre(sq).join(',')).join(' ');
  let html = `<polyline points="${points(trail)}" fill="none" stroke="#2f4a22" stroke-width="0.05"
    stroke-linecap="round" stroke-linejoin="round" opacity="0.45"/>`;
  if (pv.length) {
    html += `<polyline points="${points([state.snail, ...pv])}" fill="none" stroke="#7a3db8"
      stroke-width="0.06" stroke-dasharray="0.15 0.1" opacity="0.85"/>`;
    pv.forEach((sq, i) => {
      const [x, y] = centre(sq);
      html += `<circle cx="${x + 0.28}" cy="${y - 0.28}" r="0.16" fill="#7a3db8"/>
        <text x="${x + 0.28}" y="${y - 0.22}" font-size="0.2" text-anchor="middle" fill="#fff">${i + 1}</text>`;
    });
  }
  svg.innerHTML = html;
}

function renderStatus() {
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
    turn = `Player ${state.to_move} (${who(state.to_move)}) to move; goal ${state.to_move === 1 ? 'a1' : squareName(state.width - 1, state.height - 1)}.`;
  }
  $('turn').textContent = turn;
  const announce = $('announce');
  const text = state.over ? state.over.text : (state.notice || '');
  if (announce.textContent !== text) announce.textContent = text;
  announce.classList.toggle('over', !!state.over);
  $('engine-name').textContent = state.engine.name;
  $('engine-status').textContent = `(${state.engine.status})`;
  const down = state.engine.status === 'down';
  $('engine-down').hidden = !down;
  $('engine-message').textContent = down ? `The engine is down: ${state.engine.message}` : '';
  $('undo').disabled = state.moves.length === 0;
  $('redo').disabled = state.redo.length === 0;
  $('hint').disabled = !humanToMove() || down;
  $('stop').disabled = state.engine.status !== 'thinking';
  $('analysis').checked = state.analysis;
}

function renderMoves() {
  // Numbered moves, a pair per line; moves that redo would replay are greyed.
  const list = $('moves');
  list.textContent = '';
  const all = [...state.moves.map((m) => [m, false]), ...state.redo.map((m) => [m, true])];
  const offset = startSide() - 1;
  let li = null;
  all.forEach(([move, redo], i) => {
    const ply = i + offset;
    if (ply % 2 === 0 || li === null) {
      li = document.createElement('li');
      li.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) li.appendChild(document.createTextNode('… '));
      list.appendChild(li);
    }
    const span = document.createElement('span');
    span.className = redo ? 'mv redo' : 'mv';
    span.textContent = move;
    span.setAttribute('aria-label', `player ${(ply % 2) + 1}: ${move}`);
    li.appendChild(span);
    li.appendChild(document.createTextNode(' '));
  });
  list.scrollTop = list.scrollHeight;
}

function startSide() {
  // The side to move at the start follows from the side to move now and the moves played.
  return ((state.to_move - 1 + state.moves.length) % 2) + 1;
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
  for (let n = 1; n <= 10; n++) levels.push([String(n), `Level ${n}${n === 1 ? ' (beginner)' : n === 10 ? ' (full strength)' : ''}`]);
  fillSelect($('level'), levels, String(state ? state.level : 1));
  if (state) {
    $('mode').value = state.players.join(' ');
    $('movetime').value = String(state.movetime);
  }
  $('newgame-dialog').showModal();
}

async function startNewGame() {
  if (!session) {
    await openSession();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const [p1, p2] = $('mode').value.split(' ');
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
    a: () => toggleAnalysis(!state.analysis), s: () => send('stop') };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

const askHint = () => send('go movetime 1000');
const toggleAnalysis = (on) => send(`setoption name Analysis value ${on}`);

$('new').addEventListener('click', openNewGame);
$('undo').addEventListener('click', () => send('undo'));
$('redo').addEventListener('click', () => send('redo'));
$('hint').addEventListener('click', askHint);
$('stop').addEventListener('click', () => send('stop'));
$('restart').addEventListener('click', () => send('restart'));
$('analysis').addEventListener('change', (e) => toggleAnalysis(e.target.checked));
$('show-pgn').addEventListener('click', () => { $('record').value = state ? state.pgn : ''; });
$('show-position').addEventListener('click', () => { $('record').value = state ? state.position : ''; });
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

openSession();
