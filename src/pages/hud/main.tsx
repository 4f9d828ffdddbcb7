/**
 * The HUD overlay page (/hud), the browser source OBS shows over the game. It follows the state
 * over the application server's WebSocket as role=overlay, and tells the server what it shows when
 * it opens: its colour presets (GET /api/presets) and the panel flags the state does not have yet.
 */
import { render } from 'preact';
import type { CommandPayload, Panel } from '../../protocol/index.ts';
import { PANELS } from '../../protocol/index.ts';
import { THEME_PRESETS } from '../common/broadcast.ts';
import { Client } from '../common/client.ts';
import { state } from '../common/store.ts';
import { Overlay } from './overlay.tsx';

/**
 * The opening report: presets, opened, and for each panel flag still absent from the state, false
 * (or true for a panel that starts shown).
 */
function openingReport(): CommandPayload<'overlay_report'> {
  const report: CommandPayload<'overlay_report'> = {
    opened: true,
    presets: THEME_PRESETS.map(({ id, name }) => ({ id, name })),
  };
  for (const { stateKey, startsShown } of PANELS as readonly Panel[]) {
    if (stateKey !== 'hudWindowOpen' && state.value?.[stateKey] === undefined)
      report[stateKey] = startsShown === true;
  }
  return report;
}

const client: Client = new Client({
  role: 'overlay',
  onHello: () => void client.report(openingReport()),
  onEvent: (message) => {
    if (message.event === 'overlay.reload') window.location.reload();
  },
});

const root = document.getElementById('app');
if (root) render(<Overlay />, root);
client.start();
