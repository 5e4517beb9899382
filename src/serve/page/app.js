// napsim's page: a client of the JSON API (docs/api.md). Plain JavaScript, no build step.
'use strict';

const SUITS = [['S', '\u2660'], ['H', '\u2665'], ['D', '\u2666'], ['C', '\u2663']];
const RANKS = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
const $ = (id) => document.getElementById(id);
let profiles = [];

// ---- helpers ------------------------------------------------------------------------------

/** An element with a class and text. */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A card as a picture: rank and suit, red suits in red. `code` is the API's (AS, TD). */
function cardEl(code, tag) {
  const e = el(tag || 'span', 'card');
  const rank = code[0] === 'T' ? '10' : code[0];
  const suit = SUITS.find((s) => s[0] === code[1]);
  if (code[1] === 'H' || code[1] === 'D') e.classList.add('red');
  e.dataset.card = code;
  e.append(el('span', 'rank', rank), el('span', 'suit', suit ? suit[1] : code[1]));
  e.title = code;
  return e;
}

/** The cards of a space-separated list. */
function cards(text) {
  return text.split(/\s+/).filter((c) => c.length > 0);
}

/** A call or POST to the API; throws the server's message on an error answer. */
async function api(path, body, signal, method) {
  const options = { method: method || (body === undefined ? 'GET' : 'POST'), signal };
  if (body !== undefined) {
    options.headers = { 'Content-Type': 'application/json' };
    options.body = JSON.stringify(body);
  }
  const answer = await fetch(path, options);
  if (!answer.ok) throw new Error(await errorOf(answer));
  return answer;
}

async function errorOf(answer) {
  const text = await answer.text();
  try {
    return JSON.parse(text).error;
  } catch (e) {
    return text || answer.statusText;
  }
}

function pct(p) {
  return (100 * p).toFixed(1) + '%';
}

function signed(x) {
  return (x >= 0 ? '+' : '') + x.toFixed(2);
}

function seatName(seat, players) {
  if (seat === 0) return 'seat 0 (eldest)';
  if (seat === players - 1) return 'seat ' + seat + ' (dealer)';
  return 'seat ' + seat;
}

function fillNumbers(select, from, to, chosen, label) {
  select.replaceChildren();
  for (let n = from; n <= to; n++) {
    const o = el('option', null, label ? label(n) : String(n));
    o.value = String(n);
    select.append(o);
  }
  select.value = String(Math.min(Math.max(chosen, from), to));
}

function profileOf(select) {
  return profiles.find((p) => p.name === select.value) || profiles[0];
}

// ---- tabs ---------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll('.tab')) {
    tab.classList.toggle('active', tab.dataset.tab === name);
  }
  for (const panel of document.querySelectorAll('.panel')) {
    panel.classList.toggle('hidden', panel.id !== name);
  }
}

// ---- hand ---------------------------------------------------------------------------------

const hand = { picked: [], controller: null, timer: null };

function buildPack() {
  const pack = $('hand-pack');
  for (const [suit] of SUITS) {
    const row = el('div', 'suitrow');
    for (const rank of RANKS) {
      const card = cardEl(rank + suit, 'button');
      card.type = 'button';
      card.addEventListener('click', () => toggleCard(rank + suit));
      row.append(card);
    }
    pack.append(row);
  }
}

function toggleCard(code) {
  const at = hand.picked.indexOf(code);
  if (at >= 0) hand.picked.splice(at, 1);
  else if (hand.picked.length < 5) hand.picked.push(code);
  $('hand-cards').value = hand.picked.join(' ');
  showPicked();
  questionChanged();
}

function showPicked() {
  for (const b of $('hand-pack').querySelectorAll('.card')) {
    b.classList.toggle('picked', hand.picked.includes(b.dataset.card));
  }
}

/** Cards typed: the ones that read as cards are picked (10 or T, either case, symbols too). */
function typedCards() {
  const symbols = { '\u2660': 'S', '\u2665': 'H', '\u2666': 'D', '\u2663': 'C' };
  hand.picked = cards($('hand-cards').value.toUpperCase())
    .map((c) => c.replace(/^10/, 'T').replace(/[\u2660\u2665\u2666\u2663]/, (s) => symbols[s]))
    .filter((c) => /^[AKQJT2-9][SHDC]$/.test(c))
    .slice(0, 5);
  showPicked();
  questionChanged();
}

function fillHandSeats() {
  const players = Number($('hand-players').value);
  fillNumbers($('hand-seat'), 0, players - 1, Number($('hand-seat').value) || 0,
    (n) => seatName(n, players));
  fillAfter();
}

/** A call for each seat that speaks before the hand's. */
function fillAfter() {
  const box = $('hand-after');
  const seat = Number($('hand-seat').value);
  const previous = [...box.querySelectorAll('select')].map((s) => s.value);
  box.replaceChildren();
  if (seat === 0) return;
  box.append(el('span', 'note', 'Calls before yours:'));
  const bids = profileOf($('hand-rules')).bids;
  for (let s = 0; s < seat; s++) {
    const select = el('select');
    select.dataset.seat = String(s);
    for (const name of ['pass', ...bids.map((b) => b.name)]) {
      const o = el('option', null, name);
      o.value = name;
      select.append(o);
    }
    select.value = previous[s] || 'pass';
    select.addEventListener('change', questionChanged);
    const label = el('label', null, 'seat ' + s + ' ');
    label.append(select);
    box.append(label);
  }
}

/** The question changed: the evaluation under way is cancelled and a new one starts. */
function questionChanged() {
  if (hand.controller) hand.controller.abort();
  hand.controller = null;
  clearTimeout(hand.timer);
  if (hand.picked.length !== 5) {
    $('hand-status').textContent = hand.picked.length === 0 ? ''
      : 'Pick ' + (5 - hand.picked.length) + ' more card' + (hand.picked.length === 4 ? '' : 's') + '.';
    $('hand-result').replaceChildren();
    return;
  }
  hand.timer = setTimeout(evaluateHand, 150);
}

async function evaluateHand() {
  const controller = new AbortController();
  hand.controller = controller;
  const after = [...$('hand-after').querySelectorAll('select')].map((s) => s.value);
  const body = {
    cards: hand.picked.join(' '),
    rules: $('hand-rules').value,
    players: Number($('hand-players').value),
    seat: Number($('hand-seat').value),
    after,
  };
  const seed = $('hand-seed').value;
  if (seed !== '') body.seed = Number(seed);
  const status = $('hand-status');
  status.className = 'status';
  status.textContent = 'Playing worlds\u2026';
  try {
    const answer = await api('/api/hand/stream', body, controller.signal);
    await readLines(answer, (message) => {
      if (hand.controller !== controller) return;
      if (message.type === 'started') {
        status.textContent = 'Playing up to ' + message.of + ' worlds (seed ' + message.seed + ')\u2026';
      } else if (message.type === 'progress') {
        status.textContent = message.worlds + ' of at most ' + message.of + ' worlds played\u2026';
        if (message.report) showHand(message.report, false);
      } else if (message.type === 'result') {
        status.textContent = 'Done: ' + message.report.worlds + ' worlds, seed ' + message.report.seed + '.';
        status.dataset.done = 'true';
        showHand(message.report, true);
      } else if (message.type === 'error') {
        showError(status, message.message);
      }
    });
  } catch (e) {
    if (e.name !== 'AbortError' && hand.controller === controller) showError(status, e.message);
  }
}

function showError(status, message) {
  status.className = 'status error';
  status.textContent = message;
}

/** Reads a streamed answer of JSON lines, calling `each` with every object. */
async function readLines(answer, each) {
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) each(JSON.parse(line));
    }
  }
}

/** The figures of `napsim hand --json`'s document. */
function showHand(report, final) {
  const box = $('hand-result');
  box.replaceChildren();
  const best = report.recommended || 'pass';
  const head = el('div', 'recommended');
  head.append(el('span', null, final ? 'Best call: ' : 'Best call so far: '));
  const call = el('strong', null, best);
  call.id = 'hand-recommended';
  call.dataset.call = best;
  call.dataset.final = String(final);
  head.append(call);
  box.append(head);
  const bids = el('table', 'bids');
  const header = el('tr');
  for (const h of ['Bid', 'P(make), 95% interval', 'EV', 'Double dummy']) header.append(el('th', null, h));
  bids.append(header);
  for (const b of report.bids.filter((b) => b.callable)) {
    const row = el('tr');
    row.dataset.bid = b.bid;
    row.append(el('td', 'name', b.bid));
    const bar = el('td', 'barcell');
    const track = el('div', 'track');
    const fill = el('div', 'fill');
    fill.style.width = (100 * b.p_make) + '%';
    const whisker = el('div', 'whisker');
    whisker.style.left = (100 * b.ci95[0]) + '%';
    whisker.style.width = (100 * (b.ci95[1] - b.ci95[0])) + '%';
    track.append(fill, whisker);
    bar.append(track, el('span', 'figure',
      pct(b.p_make) + ' (' + pct(b.ci95[0]) + '\u2013' + pct(b.ci95[1]) + ')'));
    row.append(bar, el('td', 'num', signed(b.ev) + ' \u00b1 ' + b.ev_se.toFixed(2)),
      el('td', 'num', b.dd_p_make === null || b.dd_p_make === undefined ? '-' : pct(b.dd_p_make)));
    bids.append(row);
  }
  box.append(bids);
  if (report.calls) {
    box.append(el('h3', null, 'In the whole auction (the later seats bid too)'));
    box.append(callsTable(report.calls, best));
  }
}

/** Every call's value in the whole auction (a hand's or a call hint's), the best marked. */
function callsTable(calls, best) {
  const t = el('table', 'calls');
  const h = el('tr');
  for (const c of ['Call', 'EV', 'vs best', 'Contract']) h.append(el('th', null, c));
  t.append(h);
  for (const c of calls) {
    const row = el('tr');
    if (c.call === best) row.classList.add('best');
    row.append(el('td', 'name', c.call),
      el('td', 'num', signed(c.auction_ev) + ' \u00b1 ' + c.auction_ev_se.toFixed(2)),
      el('td', 'num', signed(c.diff_best)), el('td', 'num', pct(c.p_contract)));
    t.append(row);
  }
  return t;
}

// ---- play ---------------------------------------------------------------------------------

const play = { session: null, players: 4, seat: 0, trick: [], trickDone: false, records: [],
  busy: false, request: null };

async function startPlay() {
  if (play.session) api('/api/play/' + play.session, undefined, undefined, 'DELETE').catch(() => {});
  play.session = null;
  play.records = [];
  $('play-log').replaceChildren();
  $('play-review').classList.add('hidden');
  const body = {
    rules: $('play-rules').value,
    players: Number($('play-players').value),
    seat: Number($('play-seat').value),
    deals: Number($('play-deals').value) || 1,
  };
  if ($('play-seed').value !== '') body.seed = Number($('play-seed').value);
  play.players = body.players;
  $('play-table').classList.remove('hidden');
  await step(() => api('/api/play', body));
}

/** Sends a request of the session and shows what it answers. */
async function step(send) {
  if (play.busy) return;
  play.busy = true;
  setQuestion('The bots are thinking\u2026', 'thinking');
  try {
    const answer = await (await send()).json();
    if (answer.session) play.session = answer.session;
    for (const m of answer.messages) told(m);
    if (answer.error) setQuestion(answer.error, 'error');
    if (!answer.waiting) {
      play.session = null;
      play.request = null;
      if (!answer.error) setQuestion('The session is over.', 'over');
      showPlayHand([], []);
      $('play-calls').replaceChildren();
    }
  } catch (e) {
    setQuestion(e.message, 'error');
  } finally {
    play.busy = false;
  }
}

/** What the session asks or says, and its state (`thinking`, `asking`, `over`, `error`). */
function setQuestion(text, state) {
  const question = $('play-question');
  question.textContent = text;
  question.dataset.state = state;
  question.className = state === 'error' ? 'question error' : 'question';
}

function answerWith(text) {
  if (!play.session) return;
  step(() => api('/api/play/' + play.session + '/answer', { answer: text }));
}

function log(text, cls) {
  const item = el('li', cls, text);
  $('play-log').prepend(item);
}

function who(seat) {
  return seat === play.seat ? 'you' : 'seat ' + seat;
}

/** One message of `napsim play --json`. */
function told(m) {
  switch (m.type) {
    case 'session':
      play.seat = m.seat;
      play.players = m.players;
      $('play-info').textContent = m.profile + ', ' + m.players + ' players, you are seat ' + m.seat
        + '; ' + m.deals + ' deal' + (m.deals === 1 ? '' : 's') + ', seed ' + m.seed + '.';
      break;
    case 'deal':
      play.trick = [];
      $('play-auction').replaceChildren();
      $('play-trick').replaceChildren();
      $('play-hintbox').replaceChildren();
      log('Deal ' + m.number + ': seat ' + m.dealer + ' deals.', 'deal');
      break;
    case 'call': {
      const item = el('span', 'call', who(m.seat) + ': ' + m.call);
      $('play-auction').append(item);
      log(who(m.seat) + ': ' + m.call);
      break;
    }
    case 'card':
      if (play.trickDone) {
        play.trick = [];
        play.trickDone = false;
      }
      play.trick.push([m.seat, m.card]);
      showTrick();
      log(who(m.seat) + (m.seat === play.seat ? ' play ' : ' plays ') + m.card);
      break;
    case 'trick':
      play.trickDone = true;
      log('Trick ' + m.number + ' to ' + who(m.winner) + '.', 'trick');
      break;
    case 'result': {
      play.records.push(m.record);
      const pays = m.record.payments.map((p, s) => who(s) + ' ' + (p >= 0 ? '+' : '') + p).join(', ');
      log('Payments: ' + pays + '. Balances: ' + m.balances.join(', ') + '.', 'result');
      $('play-review').classList.remove('hidden');
      break;
    }
    case 'end':
      log('Session over: ' + m.balances.map((b, s) => who(s) + ' ' + b).join(', ') + '.', 'result');
      break;
    case 'error':
      log(m.message, 'refused');
      break;
    case 'hint':
      showHint(m);
      break;
    case 'event':
    case 'text':
      log(m.text.trim());
      break;
    case 'bid':
    case 'play':
      ask(m);
      break;
    case 'saved':
      break;
    default:
      if (['purchase', 'peek', 'keep', 'discard', 'trump'].includes(m.type)) ask(m);
      else log(JSON.stringify(m));
  }
}

function showTrick() {
  const box = $('play-trick');
  box.replaceChildren();
  for (const [seat, card] of play.trick) {
    const slot = el('div', 'played');
    slot.append(cardEl(card), el('span', 'who', who(seat)));
    box.append(slot);
  }
}

/** A question: the calls as buttons, or the hand with its legal cards playable. */
function ask(request) {
  play.request = request;
  const callBox = $('play-calls');
  callBox.replaceChildren();
  const held = request.hand ? cards(request.hand) : [];
  if (request.type === 'bid') {
    setQuestion('Your call.', 'asking');
    for (const call of request.legal) {
      const b = button(call, () => answerWith(call));
      b.dataset.call = call;
      callBox.append(b);
    }
    showPlayHand(held, []);
  } else if (request.type === 'play') {
    setQuestion(play.trickDone || play.trick.length === 0 ? 'Your lead.' : 'Your card.', 'asking');
    showPlayHand(held, request.legal);
  } else if (request.type === 'peek') {
    setQuestion('Look at the floater for ' + request.price + '?', 'asking');
    for (const word of ['yes', 'no']) callBox.append(button(word, () => answerWith(word)));
    showPlayHand(held, []);
  } else if (request.type === 'trump') {
    setQuestion('Name trump.', 'asking');
    for (const [letter, symbol] of SUITS) {
      const b = button(symbol, () => answerWith(letter));
      if (letter === 'H' || letter === 'D') b.classList.add('red');
      callBox.append(b);
    }
    showPlayHand(held, []);
  } else if (request.type === 'discard') {
    setQuestion('The floater is yours: discard one of your six cards.', 'asking');
    showPlayHand(cards(request.cards), cards(request.cards));
  } else {
    // Keep five of the ten (the spare hand), or give up cards for as many from the stock.
    const keeping = request.type === 'keep';
    const offered = cards(keeping ? request.cards : request.hand);
    const chosen = new Set();
    setQuestion(keeping ? 'Tap the five cards to keep.'
      : 'Tap the cards to give up for as many from the stock (' + request.stake + ' to the pool), or buy none.', 'asking');
    const box = $('play-hand');
    box.replaceChildren();
    for (const code of offered) {
      const card = cardEl(code, 'button');
      card.type = 'button';
      card.classList.add('legal');
      card.addEventListener('click', () => {
        if (chosen.has(code)) chosen.delete(code);
        else chosen.add(code);
        card.classList.toggle('picked', chosen.has(code));
      });
      box.append(card);
    }
    callBox.append(button(keeping ? 'Keep these' : 'Exchange these', () => answerWith([...chosen].join(' ') || 'none')));
    if (!keeping) callBox.append(button('Buy none', () => answerWith('none')));
  }
}

function button(text, onClick) {
  const b = el('button', 'callbutton', text);
  b.addEventListener('click', onClick);
  return b;
}

function showPlayHand(held, legal) {
  const box = $('play-hand');
  box.replaceChildren();
  for (const code of held) {
    const card = cardEl(code, 'button');
    card.type = 'button';
    if (legal.includes(code)) {
      card.classList.add('legal');
      card.addEventListener('click', () => answerWith(code));
    } else {
      card.disabled = true;
    }
    box.append(card);
  }
}

function showHint(m) {
  const box = $('play-hintbox');
  box.replaceChildren();
  if (m.cards) {
    box.append(el('h3', null, 'Each card: share of worlds won for your side, and the declarer\'s tricks double dummy'));
    const t = el('table');
    for (const c of m.cards) {
      const row = el('tr');
      const cell = el('td');
      cell.append(cardEl(c.card));
      row.append(cell, el('td', 'num', pct(c.pimc) + ' won for your side'),
        el('td', 'num', 'declarer ' + c.dd + ' trick' + (c.dd === 1 ? '' : 's')));
      t.append(row);
    }
    box.append(t);
  } else if (m.bids) {
    box.append(el('p', null, 'Best call: ' + m.best + ' (as declarer alone: ' + m.best_as_declarer
      + '), over ' + m.worlds + ' worlds.'));
    box.append(callsTable(m.calls, m.best));
  } else if (m.trump) {
    box.append(el('p', null, 'The strongest suit to name: ' + m.trump));
  }
}


// ---- review -------------------------------------------------------------------------------

async function startReview() {
  const records = $('review-records').value.trim();
  const status = $('review-status');
  status.className = 'status';
  status.removeAttribute('data-done');
  $('review-result').replaceChildren();
  if (!records) {
    showError(status, 'Paste deal records first, or open a file of them.');
    return;
  }
  status.textContent = 'Reviewing (every card solved double dummy, every call judged)\u2026';
  const body = { records, worlds: Number($('review-worlds').value) };
  try {
    const answer = await api('/api/review', body);
    const lines = (await answer.text()).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const deals = records.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    showReview(deals, lines);
    status.textContent = 'Reviewed ' + deals.length + ' deal' + (deals.length === 1 ? '' : 's') + '.';
    status.dataset.done = 'true';
  } catch (e) {
    showError(status, e.message);
  }
}

function showReview(deals, lines) {
  const box = $('review-result');
  deals.forEach((record, i) => {
    const number = i + 1;
    const section = el('section', 'deal');
    section.dataset.deal = String(number);
    const contract = record.contract
      ? 'seat ' + record.contract.declarer + ' declares ' + record.contract.bid
        + ' and takes ' + record.declarer_tricks + ' trick' + (record.declarer_tricks === 1 ? '' : 's')
        + (record.made ? ': made' : ': lost')
      : 'every seat passed';
    section.append(el('h3', null, 'Deal ' + number + ': ' + contract));
    const calls = lines.filter((l) => l.deal === number && l.type === 'call');
    if (calls.length > 0) {
      const t = el('table', 'calls');
      const h = el('tr');
      for (const c of ['Seat', 'Call', 'EV', 'Loss', 'Best']) h.append(el('th', null, c));
      t.append(h);
      for (const c of calls) {
        const row = el('tr');
        if (c.loss !== null && c.loss > 0.005) row.classList.add('costly');
        row.append(el('td', null, String(c.seat)), el('td', 'name', c.call),
          el('td', 'num', c.ev === null ? '-' : signed(c.ev)),
          el('td', 'num', c.loss === null ? '-' : c.loss.toFixed(2)),
          el('td', null, c.best === null ? '-' : c.best));
        t.append(row);
      }
      section.append(t);
    }
    const played = lines.filter((l) => l.deal === number && l.type === 'card');
    if (played.length > 0) section.append(trickViewer(record, played));
    box.append(section);
  });
}

/** The deal replayed trick by trick: the hands left, each card with its double-dummy tricks
 * for the declarer before and after it, the costly cards and the swings marked. */
function trickViewer(record, played) {
  const viewer = el('div', 'viewer');
  const tricks = Math.max(...played.map((c) => c.trick));
  let at = 1;
  const nav = el('div', 'row');
  const back = el('button', null, '\u25c0 Trick');
  const label = el('span', 'tricklabel');
  const next = el('button', null, 'Trick \u25b6');
  nav.append(back, label, next);
  const hands = el('div', 'hands');
  const table = el('table', 'cards');
  viewer.append(nav, hands, table);
  const show = () => {
    label.textContent = ' ' + at + ' of ' + tricks + ' ';
    back.disabled = at === 1;
    next.disabled = at === tricks;
    const gone = played.filter((c) => c.trick < at).map((c) => c.card);
    hands.replaceChildren();
    record.hands.forEach((h, seat) => {
      const row = el('div', 'handrow');
      row.append(el('span', 'who', 'seat ' + seat));
      for (const c of cards(h).filter((c) => !gone.includes(c))) row.append(cardEl(c));
      hands.append(row);
    });
    table.replaceChildren();
    const h = el('tr');
    for (const t of ['Seat', 'Card', 'Declarer\'s tricks (double dummy)', 'Cost', 'Best cards']) h.append(el('th', null, t));
    table.append(h);
    for (const c of played.filter((c) => c.trick === at)) {
      const row = el('tr', 'reviewcard');
      row.dataset.card = c.card;
      row.dataset.ddBefore = String(c.dd_before);
      row.dataset.ddAfter = c.dd_after === null ? '' : String(c.dd_after);
      if (c.cost > 0) row.classList.add('costly');
      if (c.made_before !== c.made_after) row.classList.add('swing');
      const cardCell = el('td');
      cardCell.append(cardEl(c.card));
      const best = el('td', 'best');
      for (const b of c.best) best.append(cardEl(b));
      row.append(el('td', null, String(c.seat)), cardCell,
        el('td', 'num', c.dd_before + ' \u2192 ' + (c.dd_after === null ? 'revoke' : c.dd_after)
          + (c.made_before !== c.made_after ? ' (swing)' : '')),
        el('td', 'num', c.cost > 0 ? String(c.cost) : ''), best);
      table.append(row);
    }
  };
  back.addEventListener('click', () => { at -= 1; show(); });
  next.addEventListener('click', () => { at += 1; show(); });
  show();
  return viewer;
}

// ---- start --------------------------------------------------------------------------------

function fillRules(select, players, onChange) {
  for (const p of profiles) {
    const o = el('option', null, p.name);
    o.value = p.name;
    o.title = p.description;
    select.append(o);
  }
  select.value = (profiles.find((p) => p.default) || profiles[0]).name;
  const fillPlayers = () => {
    const p = profileOf(select);
    fillNumbers(players, p.min_players, p.max_players, Number(players.value) || 4);
  };
  fillPlayers();
  select.addEventListener('change', () => { fillPlayers(); onChange(); });
  players.addEventListener('change', onChange);
}

async function init() {
  for (const tab of document.querySelectorAll('.tab')) {
    tab.addEventListener('click', () => showTab(tab.dataset.tab));
  }
  profiles = await (await api('/api/profiles')).json();
  buildPack();
  fillRules($('hand-rules'), $('hand-players'), () => { fillHandSeats(); questionChanged(); });
  fillHandSeats();
  $('hand-seat').addEventListener('change', () => { fillAfter(); questionChanged(); });
  $('hand-seed').addEventListener('change', questionChanged);
  $('hand-cards').addEventListener('input', typedCards);
  const fillPlaySeats = () => {
    const players = Number($('play-players').value);
    // The deal passes round the table, so a seat is not eldest or dealer for the session.
    fillNumbers($('play-seat'), 0, players - 1, Number($('play-seat').value) || 0,
      (n) => 'seat ' + n);
  };
  fillRules($('play-rules'), $('play-players'), fillPlaySeats);
  fillPlaySeats();
  $('play-start').addEventListener('click', startPlay);
  $('play-hint').addEventListener('click', () => answerWith('hint'));
  $('play-review').addEventListener('click', () => {
    // The deal just finished (every finished deal is in the session's records).
    $('review-records').value = JSON.stringify(play.records[play.records.length - 1]);
    showTab('review');
    startReview();
  });
  $('review-start').addEventListener('click', startReview);
  $('review-file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (file) $('review-records').value = await file.text();
  });
  window.addEventListener('pagehide', () => {
    if (hand.controller) hand.controller.abort();
    if (play.session) navigator.sendBeacon && fetch('/api/play/' + play.session, { method: 'DELETE', keepalive: true });
  });
  document.body.dataset.ready = 'true';
}

init().catch((e) => {
  document.body.prepend(el('p', 'status error', 'napsim could not start the page: ' + e.message));
});
