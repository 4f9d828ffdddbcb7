/** The HUD overlay: every panel on the 1920x1080 stage, each shown as the HUD state says. */
import { activePreset } from '../common/broadcast.ts';
import { Stage } from '../common/stage.tsx';
import { connectionStatus, state } from '../common/store.ts';
import { BadgePanel, SponsorPanel } from './corner-panels.tsx';
import { Economy } from './economy.tsx';
import { gameOn } from './live.ts';
import { ObservedBox, PlayerBoxes } from './player-boxes.tsx';
import { Radar } from './radar.tsx';
import { ReplayPanel } from './replay-panel.tsx';
import { RoundBanner } from './round-banner.tsx';
import { Scoreboard } from './scoreboard.tsx';
import { StatsPanel } from './stats-panel.tsx';
import { TopBar } from './top-bar.tsx';
import { VetoPanel } from './veto-panel.tsx';

export function Overlay() {
  const hud = state.value;
  return (
    <Stage>
      <main
        class="hud"
        data-page="hud"
        data-preset={activePreset.value}
        data-overlay-visible={String(hud?.hudWindowOpen === true)}
        data-ready={String(hud !== null)}
        data-connection={connectionStatus.value}
        data-game={gameOn.value ? 'live' : 'off'}
      >
        <TopBar />
        <Radar />
        <PlayerBoxes />
        <ObservedBox />
        <Economy />
        <RoundBanner />
        <Scoreboard visible={hud?.scoreboardVisible === true} />
        <VetoPanel visible={hud?.vetoVisible === true} />
        <StatsPanel visible={hud?.statsVisible === true} />
        <BadgePanel />
        <SponsorPanel />
        <ReplayPanel />
      </main>
    </Stage>
  );
}
