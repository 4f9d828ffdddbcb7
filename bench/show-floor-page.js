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
  }
}

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
