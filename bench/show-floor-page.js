// The show's floor page script: one WebSocket, and each changed value written once to its element.

const fields = new Map();
const bars = new Map();
for (const [list, slots] of [
  ['a', [1, 2, 3, 4, 5]],
  ['b', [6, 7, 8, 9, 0]],
]) {
  const ol = document.getElementById(list);
  for (const slot of slots) {
    const li = document.createElement('li');
    li.className = 'box';
    li.innerHTML =
      `<span class="bar"></span><div class="row"><b data-f="p${slot}.health"></b><span class="name" data-f="p${slot}.name"></span><span data-f="p${slot}.weapon"></span></div>` +
      `<div class="row"><span data-f="p${slot}.armor"></span><span data-f="p${slot}.money"></span><span><b data-f="p${slot}.kills"></b>/<b data-f="p${slot}.deaths"></b>/<b data-f="p${slot}.assists"></b></span></div>`;
    ol.append(li);
    bars.set(`p${slot}.health`, li.firstChild);
  }
}
// The radar: Dust II's overview numbers (pos_x, pos_y, scale of its 1024 px image) on a 380 px square.
const RADAR = { x: -2476, y: 3239, scale: 4.4, size: 380 };
const dots = new Map();
for (const slot of [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) {
  const dot = document.createElement('div');
  dot.className = 'dot';
  dot.innerHTML = `<span class="facing"><span class="look"></span></span>${slot}`;
  dot.hidden = true;
  document.getElementById('radar').append(dot);
  dots.set(slot, { dot, facing: dot.firstChild, x: null, y: null });
}
function placeDot(slot) {
  const entry = dots.get(slot);
  entry.dot.hidden = entry.x === null || entry.y === null;
  if (entry.dot.hidden) return;
  const px = ((entry.x - RADAR.x) / RADAR.scale / 1024) * RADAR.size;
  const py = ((RADAR.y - entry.y) / RADAR.scale / 1024) * RADAR.size;
  entry.dot.style.transform = `translate(${px}px, ${py}px)`;
}

for (const element of document.querySelectorAll('[data-f]'))
  fields.set(element.dataset.f, element.firstChild ?? element.appendChild(document.createTextNode('')));

const clockText = (seconds) => {
  if (seconds === null) return '';
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};
const show = (key, value) => {
  if (key === 'top.clock') return clockText(value);
  if (key.endsWith('.money')) return `$${value.toLocaleString('en-US')}`;
  if (key.endsWith('.weapon'))
    return String(value ?? '')
      .replace(/^weapon_/, '')
      .toUpperCase();
  return String(value ?? '');
};

function apply(live) {
  for (const key in live) {
    const value = live[key];
    const text = fields.get(key);
    if (text) text.data = show(key, value);
    const bar = bars.get(key);
    if (bar) bar.style.transform = `scaleX(${(value ?? 0) / 100})`;
    const radar = /^p(\d)\.(x|y|facing|side)$/.exec(key);
    if (radar) moved.add(Number(radar[1]));
    if (radar?.[2] === 'x' || radar?.[2] === 'y') dots.get(Number(radar[1]))[radar[2]] = value;
    else if (radar?.[2] === 'facing')
      dots.get(Number(radar[1])).facing.style.transform = `rotate(${-(value ?? 0)}deg)`;
    else if (radar?.[2] === 'side')
      dots.get(Number(radar[1])).dot.className = value === 'T' ? 'dot t' : 'dot';
  }
  for (const slot of moved) placeDot(slot);
  moved.clear();
}
const moved = new Set();

const panels = { scoreboardVisible: 'scoreboard', statsVisible: 'stats' };
function applyState(state) {
  for (const key in state) if (panels[key]) document.getElementById(panels[key]).hidden = !state[key];
}

const socket = new WebSocket(`ws://${location.host}/?role=page`);
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  if (message.type === 'game') apply(message.live);
  else if (message.type === 'event') applyState(message.data);
  else if (message.type === 'hello') {
    applyState(message.snapshot.state);
    document.body.dataset.ready = 'true';
  }
};
